// Smoke test of `npm run dev` (run by `npm test`; `node scripts/dev-smoke.mjs` alone): start the
// Vite dev server on a free port and a fresh state dir, sign up, post an echo and like it through
// /api over real HTTP (with the Origin header the CSRF check wants), rank it through the scheduled
// trigger (as `npm run rank`), make a hot reload happen, check the server still answers and the
// session still works, then stop it (its process group).
// A fresh clone once failed at the first step: the dev config (verticals/dev/wrangler.toml) had
// no SESSION_SECRET beside it, and sign-up answered 500.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { env, freePort, root } from "./lib.mjs";

// The first start on a fresh clone optimizes dependencies: ~20 s on a quiet 2-core machine, but a
// fresh clone's CI under six other test runs (load ~11) was still optimizing at 90 s, and at load
// ~25 had not answered at 300 s. The deadline catches a server that never comes up, not a slow one.
const DEADLINE_MS = 600_000;
// The hot reload: a comment appended to a server module on every request's path (the health
// route), restored byte for byte afterwards (also on failure or Ctrl-C).
const probe = path.join(root, "routes/api/health.ts");

export async function devSmoke({ log = console.log } = {}) {
  const port = await freePort();
  const stateDir = mkdtempSync(path.join(os.tmpdir(), "echo-dev-state-"));
  const base = `http://127.0.0.1:${port}`;
  const child = spawn("npm", ["run", "dev", "--silent", "--", "--port", String(port), "--strictPort", "--host", "127.0.0.1"], {
    cwd: root,
    env: env({ STATE_DIR: stateDir, BROWSER: "none" }),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group: npm, node, vite and workerd stop together
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const original = readFileSync(probe);
  const restore = () => writeFileSync(probe, original);
  const onSignal = () => {
    restore();
    stop();
    process.exit(130);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  let stopped = false;
  function stop() {
    if (stopped) return;
    stopped = true;
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
  const started = Date.now();
  const fail = (message) => {
    throw new Error(`${message}\n--- npm run dev output (last 6000 characters):\n${output.slice(-6000)}`);
  };

  let cookie = "";
  async function call(method, p, body) {
    const res = await fetch(base + p, {
      method,
      headers: {
        ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
        ...(method !== "GET" ? { Origin: base } : {}),
        ...(cookie ? { Cookie: cookie } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: "manual",
      signal: AbortSignal.timeout(30_000),
    });
    const set = res.headers.getSetCookie().map((c) => c.split(";")[0]);
    if (set.length) {
      const jar = new Map(cookie ? cookie.split("; ").map((c) => [c.slice(0, c.indexOf("=")), c]) : []);
      for (const c of set) jar.set(c.slice(0, c.indexOf("=")), c);
      cookie = [...jar.values()].join("; ");
    }
    const text = await res.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, json, text };
  }
  async function expectStatus(method, p, body, status) {
    const res = await call(method, p, body);
    if (res.status !== status) fail(`${method} ${p}: expected ${status}, got ${res.status} ${res.text.slice(0, 300)}`);
    return res;
  }

  try {
    for (;;) {
      if (child.exitCode !== null) fail(`npm run dev exited early (${child.exitCode})`);
      if (Date.now() - started > DEADLINE_MS) fail(`npm run dev did not answer within ${DEADLINE_MS / 1000} s`);
      const up = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(10_000) }).then((r) => r.ok, () => false);
      if (up) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    log(`dev server up on ${base} in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const userName = `devsmoke${Date.now().toString(36)}`;
    await expectStatus("POST", "/api/auth/signup", { userName, password: "pass1234" }, 201);
    if (!cookie.includes("=")) fail("sign-up set no session cookie");
    const me = await expectStatus("GET", "/api/auth/me", undefined, 200);
    if (me.json?.userName !== userName) fail(`/api/auth/me answered ${me.text.slice(0, 200)}`);
    const posted = await expectStatus("POST", "/api/echo/post", { content: "hello from the dev smoke test", tags: ["devsmoke"] }, 201);
    const echoId = posted.json?.echo?._id;
    if (!echoId) fail(`post answered ${posted.text.slice(0, 200)}`);
    const liked = await expectStatus("POST", `/api/echo/like/${echoId}`, undefined, 200);
    if (liked.json?.likes !== 1 || liked.json?.isLiked !== true) fail(`like answered ${liked.text.slice(0, 200)}`);
    log(`signed up ${userName}, posted ${echoId}, liked it: ${JSON.stringify(liked.json)}`);

    // the dev app's scheduled handler (worker/dev.ts) ranks it: `npm run rank` works against dev
    const rank = await call("GET", `/cdn-cgi/handler/scheduled?cron=${encodeURIComponent("*/5 * * * *")}`);
    if (rank.status !== 200) fail(`the scheduled trigger answered ${rank.status} ${rank.text.slice(0, 200)}`);
    const top = await expectStatus("GET", "/api/community/echos/popular?period=today&sort=likes&limit=1", undefined, 200);
    if (top.json?.[0]?._id !== echoId) fail(`after a ranking pass, popular echos read ${top.text.slice(0, 200)}`);

    // hot reload: change a server module, wait for Vite to apply it (its SSR environment logs
    // "hmr update"), then the server must still answer; the same again for the restore
    const reloaded = async (what) => {
      const before = output.length;
      const since = Date.now();
      what();
      while (!/hmr update|page reload/.test(output.slice(before))) {
        if (Date.now() - since > 60_000) fail("Vite applied no update within 60 s of a change to routes/api/health.ts");
        await new Promise((r) => setTimeout(r, 200));
      }
      return output.slice(before).split("\n").find((l) => /hmr update|page reload/.test(l))?.trim();
    };
    log(`hot reload: ${await reloaded(() => writeFileSync(probe, `${original}\n// dev-smoke ${Date.now()}\n`))}`);
    await expectStatus("GET", "/api/health", undefined, 200);
    log(`restored: ${await reloaded(restore)}`);
    await expectStatus("GET", "/api/health", undefined, 200);
    await expectStatus("GET", "/", undefined, 200);
    const again = await expectStatus("GET", `/api/echo/echo/${echoId}`, undefined, 200);
    if (again.json?.echo?.likes !== 1) fail(`after the reload, the echo reads ${again.text.slice(0, 300)}`);
    const unliked = await expectStatus("DELETE", `/api/echo/like/${echoId}`, undefined, 200);
    if (unliked.json?.likes !== 0) fail(`unlike answered ${unliked.text.slice(0, 200)}`);

    // local traces are off by default here too (LOCAL_TRACES=1 turns them on)
    if (process.env.LOCAL_TRACES !== "1" && existsSync(path.join(stateDir, "v3", "observability"))) {
      fail(`the dev server wrote traces to ${stateDir}/v3/observability`);
    }
    log(`npm run dev: sign-up, post, like, rank, hot reload, unlike ok in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    restore();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    stop();
    await new Promise((r) => (child.exitCode !== null ? r() : child.once("exit", r)));
    rmSync(stateDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.join(root, "scripts", "dev-smoke.mjs")) {
  await devSmoke();
}
