// Notifications of a viewer whose newest mentions hold a word it mutes (issue 32; decision 026,
// "Filling a short page"): a notification is not written for a hidden actor, but a muted word is
// tested as the page reads, so a run of 90 such mentions was read to its end — 338 rows for the
// first page on main. Now a page steps over at most NOTICE_WINDOW groups: every page ≤ 200 rows
// and ≤ 2 round trips, by cursor to the end each visible notification once, nothing hidden; a
// reader who hides nothing reads a full page as before (one round trip; its last page two).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { echoMuteText, newId } from "../shared/index";
import { batch, rebuildMutedWordSet, sql, testAppContext, overBudget, walkCounted, walkTable } from "../shared/index.server";
import { listNotifications, mentionStatement } from "./notification.server";

const app = () => testAppContext(env);
const user = async (name: string) => (await signup(app(), { userName: name, password: "pass1234" })).user;

/** The viewer's notifications by cursor to their end, each page counted. */
const walk = (viewerId: string) =>
  walkCounted(env, async (a, cursor) => {
    const page = await listNotifications(a, viewerId, cursor);
    return { items: page.notifications.map((n) => n.echo?.excerpt ?? ""), next: page.pagination.nextCursor };
  });

describe("notifications behind a run of muted-word mentions (real D1)", () => {
  it("90 newest mentions hidden by a word, 30 older seen: every page ≤ 200 rows, ≤ 2 rt, each seen mention once", { timeout: 180_000 }, async () => {
    const viewer = await user("nw_viewer");
    const plain = await user("nw_plain");
    const actors = await Promise.all(Array.from({ length: 10 }, (_, i) => user(`nw_a${i}`)));
    // 120 mentions as a post writes them (the echo with its folded words, the mention notifications),
    // the newest 90 holding the word the viewer mutes
    const t0 = Date.now() - 1_000_000;
    for (let i = 0; i < 120; i++) {
      const content = `hi @nw_viewer @nw_plain ${i >= 30 ? "nwcoffee " : ""}${i}`;
      const id = newId(t0 + i * 1000);
      await batch(app().db, [
        sql`INSERT INTO echos (id, author_id, content, tags, created_at, mute_text) VALUES (${id}, ${actors[i % 10]!._id}, ${content}, '[]', ${t0 + i * 1000}, ${echoMuteText({ content, tags: [] })})`,
        mentionStatement(id, actors[i % 10]!._id, ["nw_viewer", "nw_plain"], t0 + i * 1000, sql`1`)!,
      ]);
    }
    await batch(app().db, [
      sql`INSERT INTO muted_words (user_id, id, phrase, pattern, action, contexts, created_at) VALUES (${viewer._id}, ${newId(Date.now())}, 'nwcoffee', ' nwcoffee ', 'hide', 16, 1)`,
      ...rebuildMutedWordSet(viewer._id, Date.now()),
    ]);

    const hider = await walk(viewer._id);
    const reader = await walk(plain._id);
    console.warn(walkTable({ "mutes the word": hider.pages, "hides nothing": reader.pages }));
    expect([...overBudget(hider.pages), ...overBudget(reader.pages)]).toEqual([]);
    // each of the 30 mentions it sees once, none of the 90
    const expected = Array.from({ length: 30 }, (_, i) => `hi @nw_viewer @nw_plain ${29 - i}`);
    expect(hider.items).toEqual(expected);
    // the plain reader: 120 mentions in full pages of 20, one round trip each but its last (a page
    // of 20 without a 21st asks where the window ends: none, the list ended there)
    expect(reader.items).toHaveLength(120);
    expect(reader.pages.map((p) => [p.shown, p.rt])).toEqual([...Array.from({ length: 5 }, () => [20, 1]), [20, 2]]);
  });
});
