// Bidi containment: user text carrying bidi controls (here an unterminated RIGHT-TO-LEFT OVERRIDE,
// U+202E) must not reverse the text around it. Every text node holding one must sit directly in an
// isolating element (<bdi>, or dir="auto", both `unicode-bidi: isolate`) that holds nothing but that
// user text, on every screen that shows it.
import { expect, test, type Page } from "@playwright/test";
import { apiUser, open, signedInPage, unique } from "./helpers";
import { createScroll, followScroll } from "./scroll-helpers";

const RLO = "\u202e";

/** Text nodes with an RLO, and those not contained by an isolating element of their own. */
function containment(page: Page) {
  return page.evaluate((rlo) => {
    const found: string[] = [];
    const loose: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode as Text;
      if (!node.data.includes(rlo) || node.parentElement?.closest("script, style, template")) continue;
      found.push(node.data);
      const el = node.parentElement!;
      const bidi = getComputedStyle(el).unicodeBidi;
      if (!["isolate", "plaintext", "isolate-override"].includes(bidi) || el.textContent !== node.data) {
        loose.push(`<${el.tagName.toLowerCase()} class="${el.className}"> unicode-bidi: ${bidi}: ${JSON.stringify(el.textContent)}`);
      }
    }
    return { found, loose };
  }, RLO);
}

test("names, descriptions, echo text and bios with a bidi override are rendered isolated everywhere", async ({ page, playwright, baseURL }) => {
  await signedInPage(page, "bd");
  const owner = await apiUser(playwright, baseURL, "bo");
  const s = unique("bd");
  const scroll = await createScroll(owner.request, { name: `${RLO}evil ${s}`, type: "feed", description: `${RLO}reversed description` });
  const curation = await createScroll(owner.request, { name: `${RLO}cur ${s}`, type: "curation" });
  const echo = await owner.request.post("/api/echo/post", { data: { content: `${RLO}reversed echo ${s}`, tags: [] } });
  expect(echo.status()).toBe(201);
  const echoId = ((await echo.json()) as { echo: { _id: string } }).echo._id;
  const addRes = await owner.request.post(`/api/scroll/${curation._id}/add-echo`, { data: { echoId } });
  expect(addRes.status()).toBe(200);
  expect((await owner.request.patch("/api/profile/me", { data: { bio: `${RLO}reversed bio` } })).status()).toBe(200);
  await followScroll(page.request, scroll._id);

  for (const path of ["/community", "/browse/scrolls", `/scroll/${scroll._id}`, `/scroll/${curation._id}`, `/echo/${echoId}`, `/user/${owner.user._id}`, "/scrolls", "/"]) {
    await open(page, path);
    const { found, loose } = await containment(page);
    expect(found.length, `${path} shows the user text`).toBeGreaterThan(0);
    expect(loose, path).toEqual([]);
  }
  // a plain-string title isolates it with FSI … PDI
  await open(page, `/scroll/${scroll._id}`);
  expect(await page.title()).toBe(`\u2068${scroll.name}\u2069 · Echo`);
  await owner.request.dispose();
});
