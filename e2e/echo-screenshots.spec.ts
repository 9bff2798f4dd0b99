// Screenshots of the echo screens for a person to look at (not assertions): light and dark,
// 1280x800 and 390x800, into screenshots/ (git-ignored). Off unless ECHO_SCREENSHOTS=1:
//   ECHO_SCREENSHOTS=1 TEST_BASE_URL=… npx playwright test e2e/echo-screenshots.spec.ts
import { mkdirSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { card, likeEcho, open, openMenu, PASSWORD, postEcho, signUp, skipSplash, unique, waitForApp } from "./echo-helpers";

test.skip(!process.env.ECHO_SCREENSHOTS, "set ECHO_SCREENSHOTS=1 to take screenshots");

test("echo screens, light and dark, wide and narrow", async ({ browser, request, baseURL, playwright }) => {
  test.setTimeout(180_000);
  mkdirSync("screenshots", { recursive: true });
  const tag = unique("shot");
  await signUp(request, "author");
  await postEcho(request, "A short one.", [tag]);
  await postEcho(request, "Trying out the new espresso place on the corner. The crema is unreal and the barista knows everyone by name.", [tag, "food", "life"]);
  const featured = await postEcho(
    request,
    "Long echo to see wrapping: " + "the quick brown fox jumps over the lazy dog ".repeat(8).trim() + " https://example.com/a/very/long/url/that/should/wrap/somewhere/sensible",
    [tag, "thoughts", "tech", "travel", "learning"],
  );
  await likeEcho(request, featured._id);
  const viewerApi = await playwright.request.newContext({ baseURL });
  const viewer = await signUp(viewerApi, "viewer");
  await likeEcho(viewerApi, featured._id);
  await viewerApi.dispose();

  for (const theme of ["light", "dark"] as const) {
    for (const [label, viewport] of [["wide", { width: 1280, height: 800 }], ["narrow", { width: 390, height: 800 }]] as const) {
      const context = await browser.newContext({ baseURL, viewport });
      await skipSplash(context);
      await context.addInitScript((t) => localStorage.setItem("theme", t), theme);
      const page = await context.newPage();
      const login = await page.request.post("/api/auth/login", { data: { userName: viewer.userName, password: PASSWORD } });
      expect(login.ok()).toBe(true);
      const shot = async (name: string) => {
        await page.screenshot({ path: `screenshots/echo-${name}-${theme}-${label}.png` });
      };

      await open(page, "/");
      await shot("home");
      await open(page, "/new");
      await page.getByRole("textbox", { name: "What's on your mind?" }).fill("x".repeat(960));
      await page.locator("#echo-tags").pressSequentially("travel food ");
      await shot("new");
      await open(page, `/echo/${featured._id}`);
      await shot("detail");
      await openMenu(card(page, featured._id));
      await shot("menu");
      await page.getByRole("menuitem", { name: "Report" }).click();
      await expect(page.getByRole("dialog", { name: "Report echo" })).toBeVisible();
      await shot("report");
      await page.goto(`/tag/${tag}`);
      await waitForApp(page);
      await page.waitForLoadState("networkidle");
      await shot("tag");
      await open(page, `/tag/${unique("empty")}`);
      await shot("tag-empty");
      await context.close();
    }
  }
});
