// Following for a viewer whose follows' echos its muted words hide (issue 32; decision 026,
// "Filling a short page"): the timeline page had no window, so a run of word-hidden entries was
// read to its end — 110 of them cost the first page ~290 rows (the 0.1 store's bench hider, 290).
// Now its entries are a scan window, a short page filled within the rows D1 says were left or
// probed for where the timeline goes on: every page ≤ 200 rows and ≤ 2 round trips, by cursor to
// the end each visible echo once and in order; a reader who hides nothing reads a full page of 20
// in one round trip.
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
});
