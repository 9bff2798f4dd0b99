// `npm run bench:nav`: how long a click takes to show the next page, in Debian's Chromium, for
// navigations inside one vertical (client-side) and across verticals (a document navigation, with
// Speculation Rules and View Transitions) — docs/decisions/011. A benchmark, not a test: it prints
// the median and p90 of click → the new page's main content painted, per kind of navigation.
//
// It starts the production build on a fresh store (SKIP_BUILD=1 reuses build/), or measures a
// server already running at BENCH_NAV_URL (a build of an older commit, for the "before" figures).
// Each navigation is a person's: the pointer rests on the link for 300 ms, then clicks.
// Env: BENCH_NAV_ROUNDS (default 15), BENCH_NAV_URL.
import { chromium } from "@playwright/test";
import { buildVerticals } from "./build.mjs";
import { startServer } from "./server.mjs";

const ROUNDS = Number(process.env.BENCH_NAV_ROUNDS || "15");
const PASSWORD = "pass1234";

/** [from, link text in the sidebar, to, kind]: kind is what the micro-frontend cut makes of it. */
const HOPS = [
  ["/", "Create Echo", "/new", "same vertical"],
  ["/new", "Feed", "/", "same vertical"],
  ["/scrolls", "My Feeds", "/scrolls/feeds", "same vertical"],
  ["/browse/tags", "Popular", "/browse/popular", "same vertical"],
  ["/", "Scrolls", "/scrolls", "cross vertical"],
  ["/scrolls", "Explore", "/community", "cross vertical"],
  ["/community", "Settings", "/settings", "cross vertical"],
  ["/settings", "Feed", "/", "cross vertical"],
];

const base = process.env.BENCH_NAV_URL;
if (!base && process.env.SKIP_BUILD !== "1") await buildVerticals();
const server = base ? null : await startServer({ vars: { AUTH_IP_LIMIT_PER_MINUTE: "100000" } });
const url = base ?? server.baseUrl;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
try {
  const context = await browser.newContext({ baseURL: url, viewport: { width: 1280, height: 800 } });
  // no splash (it shows once per tab); the click's time is kept across a document change
  await context.addInitScript(() => {
    sessionStorage.setItem("echo.splashed", "1");
    addEventListener("click", () => sessionStorage.setItem("bench.click", String(performance.timeOrigin + performance.now())), true);
  });
  const page = await context.newPage();
  const name = `nav${Date.now().toString(36)}`;
  const signup = await page.request.post("/api/auth/signup", { data: { userName: name, password: PASSWORD } });
  if (signup.status() !== 201) throw new Error(`signup failed: ${signup.status()} ${await signup.text()}`);
  for (let i = 0; i < 5; i++) await page.request.post("/api/echo/post", { data: { content: `bench echo ${i}`, tags: ["bench"] } });

  const samples = new Map(HOPS.map((h) => [h, []]));
  for (let round = 0; round < ROUNDS + 1; round++) {
    for (const hop of HOPS) {
      const [from, text, to] = hop;
      await page.goto(from);
      await page.waitForFunction(() => Object.keys(document.querySelector("main") ?? {}).some((k) => k.startsWith("__reactProps$")));
      const link = page.getByRole("complementary", { name: "Sidebar" }).getByRole("link", { name: text, exact: true });
      await link.hover();
      await page.waitForTimeout(300);
      await link.click();
      // painted: the new path, its main without skeletons or a progress bar, then one frame
      await page.waitForFunction(
        (path) => location.pathname === path && document.querySelector("main#main") && !document.querySelector("main .skeleton, .nav-progress"),
        to,
        { polling: "raf", timeout: 30_000 },
      );
      const ms = await page.evaluate(
        () => new Promise((r) => requestAnimationFrame(() => setTimeout(() => r(performance.timeOrigin + performance.now() - Number(sessionStorage.getItem("bench.click")))))),
      );
      if (round > 0) samples.get(hop).push(ms); // round 0 warms caches and the server
    }
  }
  const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
  console.log(`\nclick → main content painted, ${ROUNDS} rounds (${url})`);
  const byKind = new Map();
  for (const [hop, xs] of samples) {
    console.log(`  ${hop[3].padEnd(14)} ${`${hop[0]} → ${hop[2]}`.padEnd(30)} median ${pct(xs, 0.5).toFixed(0).padStart(5)} ms  p90 ${pct(xs, 0.9).toFixed(0).padStart(5)} ms`);
    byKind.set(hop[3], [...(byKind.get(hop[3]) ?? []), ...xs]);
  }
  for (const [kind, xs] of byKind) console.log(`${kind}: median ${pct(xs, 0.5).toFixed(0)} ms, p90 ${pct(xs, 0.9).toFixed(0)} ms (${xs.length} navigations)`);
} finally {
  await browser.close();
  await server?.stop();
}
