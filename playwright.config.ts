import { existsSync } from "node:fs";
import { defineConfig } from "@playwright/test";

// Debian's Chromium: Playwright's own browser download does not work on these machines. BASE_URL is
// a running production build (scripts/test.mjs starts one).
// The headless shell (apt-get install chromium-headless-shell, as .ci/run does) when it is there:
// the same Blink and V8 as the full browser without its desktop layer, and what Playwright itself
// runs for headless Chromium by default. It halves the suite's browser CPU (issue 30: echos.spec's
// 20 tests 61.5 → 32.3 CPU-s, client side). The full Chromium stays the fallback, and
// e2e/tab-browser.ts still launches it for the prerender checks (Speculation Rules need a tab target).
const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";
const chromium = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");
export default defineConfig({
  testDir: "e2e",
  // Screenshot capture for eyeballing the screens runs only on request: SCREENSHOTS=1.
  testIgnore: process.env.SCREENSHOTS ? [] : ["**/screenshots.spec.ts"],
  // A fresh clone's CI at load ~25 (2 cores, other test runs beside it; issue 28: CI must not flake
  // under load) failed a login whose toast took longer than 7 s; what a test waits for is unchanged,
  // a slow machine may take longer to show it. A passing test is not slowed by these.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [["list"]],
  use: {
    baseURL: process.env.TEST_BASE_URL ?? "http://127.0.0.1:8787",
    launchOptions: {
      executablePath: chromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
    trace: "off",
    screenshot: "only-on-failure",
  },
});
