// Accounts through the browser (spec §2 routing, §5 sign-up / login / logout).
import { expect, test } from "@playwright/test";
import { expectPath, expectToastShown, open, PASSWORD, recordPosts, signUp, toast, unique } from "./helpers";

const startsWith = (text: string) => new RegExp(`^${text.replace(/[.*+?^$()|[\]\\{}]/g, "\\$&")}`);

test.describe("sign up", () => {
  test("signing up through the /signup form lands on / with 'Account Created'", async ({ page }) => {
    const userName = unique();
    await open(page, "/signup");
    await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();

    await page.getByLabel("Username").fill(userName);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign up" }).click();

    await expectToastShown(page, "Account Created");
    await expectPath(page, "/");
    // Really signed in as the new user: the shell names them.
    await expect(page.getByRole("link", { name: `@${userName}`, exact: true })).toBeVisible();
  });

  test("a taken user name is said under the name field, not in a vanishing toast", async ({ page, request }) => {
    const { userName } = await signUp(request); // `request` is not the page's context: still a guest
    await open(page, "/signup");

    const name = page.getByLabel("Username");
    await name.fill(userName);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign up" }).click();

    await expect(page.getByRole("alert")).toHaveText("Username is already taken");
    await expect(name).toHaveAttribute("aria-invalid", "true");
    await expect(name).toHaveAccessibleDescription(/Username is already taken/);
    await page.waitForTimeout(5000); // longer than a toast lives: the message stays
    await expect(page.getByRole("alert")).toHaveText("Username is already taken");
    await expectPath(page, "/signup");
    await expect(toast(page, "Account Created")).toHaveCount(0);
  });

  test("sign-up shows its rules up front and each invalid field's reason under it, without posting", async ({ page }) => {
    await open(page, "/signup");
    const posts = recordPosts(page);
    const userName = page.getByLabel("Username");
    const password = page.getByLabel("Password");
    const submit = page.getByRole("button", { name: "Sign up" });
    const rules = '1–30 characters: letters, numbers, "_", "." and "-"; starts and ends with a letter, number or "_"';

    await expect(userName).toHaveAccessibleDescription(rules);
    await expect(password).toHaveAccessibleDescription("Minimum 4 characters required");

    const cases: [name: string, pass: string, nameError: string | null, passError: string | null][] = [
      ["", "", "Username is required", "Password is required"],
      [unique(), "abc", null, "Password must be at least 4 characters"],
      ["   ", PASSWORD, "Username is required", null],
      ["José", PASSWORD, 'Username may only contain letters, numbers, "_", "." and "-"', null],
      ["echo🙂", PASSWORD, 'Username may only contain letters, numbers, "_", "." and "-"', null],
      ["a".repeat(31), PASSWORD, "Username must be at most 30 characters", null],
      // issue 28: names a URL or a mention cannot carry
      ["..", PASSWORD, 'Username must start and end with a letter, number or "_", and may not have two dots in a row', null],
      ["bob.", PASSWORD, 'Username must start and end with a letter, number or "_", and may not have two dots in a row', null],
    ];
    for (const [name, pass, nameError, passError] of cases) {
      await userName.fill(name);
      await password.fill(pass);
      await submit.click();
      for (const [field, error] of [[userName, nameError], [password, passError]] as const) {
        if (error) {
          await expect(field, `${name}/${pass}`).toHaveAttribute("aria-invalid", "true");
          // the error first, then the rule it broke
          await expect(field).toHaveAccessibleDescription(startsWith(error));
        } else {
          await expect(field, `${name}/${pass}`).toHaveAttribute("aria-invalid", "false");
        }
      }
    }
    expect(posts).toEqual([]);
    await expectPath(page, "/signup");

    // valid input clears the messages and posts
    await userName.fill(unique());
    await password.fill(PASSWORD);
    await submit.click();
    await expectToastShown(page, "Account Created");
    expect(posts).toHaveLength(1);
  });
});

test.describe("log in", () => {
  test("logging in through the /login form lands on / with 'Logged in successfully'", async ({ page, request }) => {
    const { userName } = await signUp(request);
    await open(page, "/login");
    await expect(page.getByRole("heading", { name: "Welcome back" })).toBeVisible();

    await page.getByLabel("Username").fill(userName);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();

    await expectToastShown(page, "Logged in successfully");
    await expectPath(page, "/");
    await expect(page.getByRole("link", { name: `@${userName}`, exact: true })).toBeVisible();
  });

  test("a wrong password shows the server's 'Invalid username or password' toast", async ({ page, request }) => {
    const { userName } = await signUp(request);
    await open(page, "/login");

    await page.getByLabel("Username").fill(userName);
    await page.getByLabel("Password").fill("wrong-password");
    await page.getByRole("button", { name: "Log in" }).click();

    await expectToastShown(page, "Invalid username or password");
    await expectPath(page, "/login");
    await expect(toast(page, "Logged in successfully")).toHaveCount(0);
    // Still a guest: the app sends us back to /login.
    await page.goto("/");
    await expectPath(page, "/login");
  });

  test("the login form shows each validation message (spec §5)", async ({ page }) => {
    await open(page, "/login");
    const posts = recordPosts(page);
    const submit = page.getByRole("button", { name: "Log in" });

    await submit.click();
    await expect(page.getByRole("alert")).toHaveText(["Username is required", "Password is required"]);
    await expect(page.getByLabel("Username")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");

    await page.getByLabel("Username").fill(unique());
    await page.getByLabel("Password").fill("abc");
    await submit.click();
    await expect(page.getByRole("alert")).toHaveText(["Password must be at least 4 characters"]);
    await expect(page.getByLabel("Username")).toHaveAttribute("aria-invalid", "false");

    expect(posts).toEqual([]); // invalid input never reaches the server
    await expectPath(page, "/login");
    await expect(page.getByRole("status").filter({ hasText: /\S/ })).toHaveCount(0); // no toast (the empty live region of the progress bar is always there)
  });
});

test.describe("log out", () => {
  test("confirming the logout dialog on /settings signs out to /login", async ({ page }) => {
    await signUp(page.request);
    await open(page, "/settings");

    const dialogs: { type: string; message: string }[] = [];
    page.once("dialog", async (dialog) => {
      dialogs.push({ type: dialog.type(), message: dialog.message() });
      await dialog.accept();
    });
    await page.locator("main").getByRole("button", { name: "Sign Out" }).click();

    await expectToastShown(page, "Logged out successfully");
    await expectPath(page, "/login");
    expect(dialogs).toEqual([{ type: "confirm", message: "Are you sure you want to logout?" }]);

    // The session is gone for real, not just forgotten by the screen.
    await page.goto("/settings");
    await expectPath(page, "/login");
  });

  test("dismissing the logout dialog keeps you signed in on /settings", async ({ page }) => {
    const { userName } = await signUp(page.request);
    await open(page, "/settings");
    const posts = recordPosts(page);

    const dialogs: string[] = [];
    page.once("dialog", async (dialog) => {
      dialogs.push(dialog.message());
      await dialog.dismiss();
    });
    await page.locator("main").getByRole("button", { name: "Sign Out" }).click();

    await expect.poll(() => dialogs).toEqual(["Are you sure you want to logout?"]);
    await page.waitForTimeout(300); // a wrongly sent logout would be on its way by now
    expect(posts).toEqual([]);
    await expectPath(page, "/settings");
    await expect(page.getByRole("status").filter({ hasText: /\S/ })).toHaveCount(0); // no toast (the empty live region of the progress bar is always there)

    await page.reload();
    await expectPath(page, "/settings");
    await expect(page.getByRole("link", { name: `@${userName}`, exact: true })).toBeVisible();
  });
});

test.describe("route guards (spec §2)", () => {
  for (const path of ["/profile", "/settings", "/"]) {
    test(`a guest visiting ${path} is redirected to /login`, async ({ page }) => {
      await page.goto(path);
      await expectPath(page, "/login");
      await expect(page.getByRole("heading", { name: "Welcome back" })).toBeVisible();
    });
  }

  for (const path of ["/login", "/signup"]) {
    test(`a signed-in user visiting ${path} is redirected to /`, async ({ page }) => {
      const { userName } = await signUp(page.request);
      await page.goto(path);
      await expectPath(page, "/");
      await expect(page.getByRole("link", { name: `@${userName}`, exact: true })).toBeVisible();
    });
  }

  test("a guest screen opened before signing in elsewhere sends the now signed-in user to /", async ({ page }) => {
    await open(page, "/login");
    // Signed in meanwhile (as from another tab): the cookie is in this browser context now.
    const { userName } = await signUp(page.request);

    // An in-app link to the other guest screen is a client-side navigation.
    await page.getByRole("link", { name: "Sign up" }).click();
    await expectPath(page, "/");
    await expect(page.getByRole("link", { name: `@${userName}`, exact: true })).toBeVisible();
  });
});
