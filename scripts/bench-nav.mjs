// `npm run bench:nav`: how long a click takes to show the next page, in Debian's Chromium, for
// navigations inside one vertical (client-side) and across verticals (a document navigation, with
// Speculation Rules and View Transitions) — docs/decisions/011. A benchmark, not a test: it prints
// the median and p90 of click → the new page's main content painted, per kind of navigation, and
// how many of the document navigations were served by a prerender or a prefetch.
//
// It starts the production build on a fresh store (SKIP_BUILD=1 reuses build/), or measures a
// server already running at BENCH_NAV_URL (a build of an older commit, for the "before" figures).
// Each navigation is a person's: the pointer rests on the link for 300 ms, then clicks.
// The browser is driven through its tab target (e2e/tab-browser.ts), not by Playwright: Chromium
// prerenders nothing for a page Playwright is attached to, and prerendering is what is measured.
// Env: BENCH_NAV_ROUNDS (default 15), BENCH_NAV_URL.
import { TabBrowser } from "../e2e/tab-browser.ts";
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
const browser = await TabBrowser.launch({ width: 1280, height: 800 });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
try {
  // no splash (it shows once per tab: the tab's sessionStorage says it was shown)
  await browser.goto(`${url}/api/health`);
  await browser.evaluate(() => sessionStorage.setItem("echo.splashed", "1"));
  const post = (path, body) =>
    browser.evaluate(
      ([p, b]) => fetch(p, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(b) }).then(async (r) => [r.status, await r.text()]),
      [path, body],
    );
  const name = `nav${Date.now().toString(36)}`;
  const [status, text] = await post("/api/auth/signup", { userName: name, password: PASSWORD });
  if (status !== 201) throw new Error(`signup failed: ${status} ${text}`);
  for (let i = 0; i < 5; i++) await post("/api/echo/post", { content: `bench echo ${i}`, tags: ["bench"] });

  const samples = new Map(HOPS.map((h) => [h, []]));
  const served = new Map(); // kind → { prerender, prefetch, network }
  for (let round = 0; round < ROUNDS + 1; round++) {
    for (const hop of HOPS) {
      const [from, , to, kind] = hop;
      await browser.goto(`${url}${from}`);
      await browser.waitFor(() => Object.keys(document.querySelector("main") ?? {}).some((k) => k.startsWith("__reactProps$")));
      // the click's time, kept across a document change
      await browser.evaluate(() => addEventListener("click", () => sessionStorage.setItem("bench.click", String(performance.timeOrigin + performance.now())), true));
      const link = `#sidebar a[href="${to}"]`;
      await browser.hover(link);
      await sleep(300);
      await browser.click(link);
      // painted: the new path, its main without skeletons or a progress bar, then one frame
      const [ms, how] = await browser.waitFor(
        (path) =>
          new Promise((resolve) => {
            const done = () => location.pathname === path && document.querySelector("main#main") && !document.querySelector("main .skeleton, .nav-progress");
            const poll = () => {
              if (!done()) return requestAnimationFrame(poll);
              requestAnimationFrame(() =>
                setTimeout(() => {
                  const nav = performance.getEntriesByType("navigation")[0];
                  const how = nav.activationStart > 0 ? "prerender" : nav.deliveryType === "navigational-prefetch" ? "prefetch" : "network";
                  resolve([performance.timeOrigin + performance.now() - Number(sessionStorage.getItem("bench.click")), how]);
                }),
              );
            };
            poll();
          }),
        to,
        30_000,
      );
      if (round === 0) continue; // round 0 warms caches and the server
      samples.get(hop).push(ms);
      // what served the new document (inside a vertical the document stays: nothing to count)
      if (kind === "cross vertical") {
        const counts = served.get(kind) ?? { prerender: 0, prefetch: 0, network: 0 };
        counts[how]++;
        served.set(kind, counts);
      }
    }
  }
  const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
  console.log(`\nclick → main content painted, ${ROUNDS} rounds (${url})`);
  const byKind = new Map();
  for (const [hop, xs] of samples) {
    console.log(`  ${hop[3].padEnd(14)} ${`${hop[0]} → ${hop[2]}`.padEnd(30)} median ${pct(xs, 0.5).toFixed(0).padStart(5)} ms  p90 ${pct(xs, 0.9).toFixed(0).padStart(5)} ms`);
    byKind.set(hop[3], [...(byKind.get(hop[3]) ?? []), ...xs]);
  }
  for (const [kind, xs] of byKind) {
    const c = served.get(kind);
    const documents = c ? `; documents: ${c.prerender} prerendered, ${c.prefetch} prefetched, ${c.network} fetched on click` : "";
    console.log(`${kind}: median ${pct(xs, 0.5).toFixed(0)} ms, p90 ${pct(xs, 0.9).toFixed(0)} ms (${xs.length} navigations${documents})`);
  }
} finally {
  await browser.close();
  await server?.stop();
}
