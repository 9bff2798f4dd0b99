// Following for a viewer whose follows' echos its muted words hide (issue 32; decision 026,
// "Filling a short page"): the timeline page had no window, so a run of word-hidden entries was
// read to its end — 110 of them cost the first page ~290 rows (the 0.1 store's bench hider, 290).
// Now its entries are a scan window, a short page filled within the rows D1 says were left or
// probed for where the timeline goes on: every page ≤ 200 rows and ≤ 2 round trips, by cursor to
// the end each visible echo once and in order; a reader who hides nothing reads a full page of 20
// in one round trip. A page whose whole window is hidden walks on from that window's end in its
// second statement (decision 026, "A page that showed nothing"): behind a run of 32, page 1 shows 4.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { listFollowing, postEcho } from "../echo/index.server";
import { testAppContext, overBudget, walkCounted, walkTable } from "../shared/index.server";
import { setUserFollow } from "./profile.server";
import { addMutedWord } from "./muted-words.server";

const app = () => testAppContext(env);
const user = async (name: string) => (await signup(app(), { userName: name, password: "pass1234" })).user;

/** The viewer's Following by cursor to its end, each page counted. */
const walk = (viewerId: string) =>
  walkCounted(env, async (a, cursor) => {
    const page = await listFollowing(a, viewerId, { page: 1, limit: 20, cursor });
    return { items: page.echos.map((e) => e.content), next: page.pagination.nextCursor };
  });

describe("Following behind a run of echos a muted word hides (real D1)", () => {
  it("110 newest entries hidden by a word, 30 older seen: every page ≤ 200 rows, ≤ 2 rt, each seen echo once in order", { timeout: 180_000 }, async () => {
    const viewer = await user("fw_viewer");
    const plain = await user("fw_plain");
    const authors = await Promise.all(["fw_a0", "fw_a1", "fw_a2"].map(user));
    for (const a of authors) {
      await setUserFollow(app(), viewer._id, a!._id, true);
      await setUserFollow(app(), plain._id, a!._id, true);
    }
    for (let i = 0; i < 140; i++) await postEcho(app(), authors[i % 3]!._id, { content: `fw echo ${i >= 30 ? "fwcoffee " : ""}${i}`, tags: [] });
    await addMutedWord(app(), viewer._id, { phrase: "fwcoffee", action: "hide", contexts: ["home"], duration: "forever" });

    const hider = await walk(viewer._id);
    const reader = await walk(plain._id);
    console.warn(walkTable({ "mutes the word": hider.pages, "hides nothing": reader.pages }));
    expect([...overBudget(hider.pages), ...overBudget(reader.pages)]).toEqual([]);
    expect(hider.items).toEqual(Array.from({ length: 30 }, (_, i) => `fw echo ${29 - i}`));
    expect(reader.items).toHaveLength(140);
    expect(reader.pages.slice(0, 6).map((p) => [p.shown, p.rt])).toEqual(Array.from({ length: 6 }, () => [20, 1]));
  });

  it("a hidden run just longer than the window (28 entries): the first page walks on from the window's end and shows echos", { timeout: 180_000 }, async () => {
    const viewer = await user("fr_viewer");
    const authors = await Promise.all(["fr_a0", "fr_a1"].map(user));
    for (const a of authors) await setUserFollow(app(), viewer._id, a!._id, true);
    // 40 seen (oldest), then the 32 newest hidden by a word: a run longer than the window
    for (let i = 0; i < 72; i++) await postEcho(app(), authors[i % 2]!._id, { content: `fr echo ${i >= 40 ? "frcoffee " : ""}${i}`, tags: [] });
    await addMutedWord(app(), viewer._id, { phrase: "frcoffee", action: "hide", contexts: ["home"], duration: "forever" });

    const hider = await walk(viewer._id);
    console.warn(walkTable({ "32 newest hidden": hider.pages }));
    expect(overBudget(hider.pages)).toEqual([]);
    expect(hider.items).toEqual(Array.from({ length: 40 }, (_, i) => `fr echo ${39 - i}`));
    // page 1's window (28 entries) is all hidden; its second statement finds that window's end
    // and walks on with the window the rows left allow at the worst: the first trip read 59, so
    // (200 − 59 − 8 fixed − 2 × 28 for the window's end found twice, by the fill's seek and its
    // probe) / (3 an entry + 1 probed + 5 a shown echo) = 8 entries: the 4 hidden left, 4 shown.
    // On main it showed 0 (its probe's cursor only).
    expect(hider.pages.map((p) => [p.shown, p.rt])).toEqual([[4, 2], [20, 1], [16, 1]]);
  });
});

