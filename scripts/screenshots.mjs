// Chromium screenshots of the screens, light and dark, wide and narrow, for a person to look at.
// usage: npm exec -- node scripts/screenshots.mjs <baseUrl> <userName> <password> <path>...
import { chromium } from "@playwright/test";
import { mkdirSync } from "node:fs";

const [base = "http://127.0.0.1:8787", userName, password, ...paths] = process.argv.slice(2);
mkdirSync("screenshots", { recursive: true });
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
for (const theme of ["light", "dark"]) {
  for (const [label, viewport] of [["wide", { width: 1280, height: 860 }], ["narrow", { width: 390, height: 844 }]]) {
    const context = await browser.newContext({ viewport });
    await context.addInitScript(([t]) => {
      localStorage.setItem("theme", t);
      sessionStorage.setItem("echo.splashed", "1");
    }, [theme]);
    const page = await context.newPage();
    if (userName) {
      const res = await page.request.post(`${base}/api/auth/login`, { data: { userName, password } });
      if (!res.ok()) throw new Error(`login failed ${res.status()}`);
    }
    for (const path of paths) {
      await page.goto(base + path);
      await page.waitForLoadState("networkidle");
      const name = `screenshots/${path.replace(/[^a-z0-9]+/gi, "_") || "root"}-${theme}-${label}.png`;
      await page.screenshot({ path: name, fullPage: false });
      console.log(name);
    }
    await context.close();
  }
}
await browser.close();
