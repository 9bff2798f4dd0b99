// The test runner's steps (scripts/test.mjs): a step is a named promise, timed; several run side by
// side when they share no files or store, their output lines prefixed with the step's name so the
// interleaved log still reads; the first failure stops every command still running (each in its
// own process group: a test runner's browsers and servers go with it) and the run fails.
import { spawn } from "node:child_process";
import { env, root } from "./lib.mjs";

const running = new Set();

/** Stop every command a step started that is still running (their process groups). */
export function stopAll() {
  for (const child of running) {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
  running.clear();
}

/** Pass each whole line of a stream on with a prefix (a partial last line waits for its end). */
function prefixLines(stream, prefix, out) {
  let rest = "";
  stream.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) out.write(`${prefix}${line}\n`);
  });
  stream.on("end", () => rest && out.write(`${prefix}${rest}\n`));
}

/**
 * Run a command as a step's work: in its own process group (stopAll ends it and its children),
 * its output prefixed with `[name] ` when other steps run beside it (`prefix: false` leaves it as is).
 */
export function run(name, cmd, args, { env: extra = {}, prefix = true } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: root,
      env: env(extra),
      stdio: prefix ? ["ignore", "pipe", "pipe"] : "inherit",
      detached: true,
    });
    running.add(child);
    if (prefix) {
      prefixLines(child.stdout, `[${name}] `, process.stdout);
      prefixLines(child.stderr, `[${name}] `, process.stderr);
    }
    child.on("exit", (code, signal) => {
      running.delete(child);
      if (code === 0) resolve();
      else reject(new Error(`${name}: ${cmd} ${args.join(" ")} failed (${signal ?? code})`));
    });
  });
}

/** A named, timed step. */
export async function step(name, fn) {
  const t = Date.now();
  console.log(`\n=== ${name}`);
  await fn();
  console.log(`=== ${name}: ok (${((Date.now() - t) / 1000).toFixed(1)} s)`);
}

/**
 * Steps side by side: resolves when all succeed; on the first failure stops the others' commands
 * and rejects with it (Promise.all alone would leave them running).
 */
export async function together(...steps) {
  try {
    await Promise.all(steps);
  } catch (error) {
    stopAll();
    // let the others settle (their rejections are this one's consequence, not news)
    await Promise.allSettled(steps);
    throw error;
  }
}
