// Test data for a heavy hider's feed (issue 32: decision 033's hiding index, decision 034's fill):
// `count` echos of one tag by AUTHORS authors in turn (echo i by author i % 10), some carrying
// words the hider may mute, likes spread so the most-liked order differs from time. Written with
// SQL (more echos than the post limit allows), each tag row carrying its author as a post writes it.
import { expect } from "vitest";
import { newId } from "../shared/index";
import { batch, rebuildMutedWordSet, sql, type AppContext, type Change } from "../shared/index.server";
import { measured } from "./depth-paging.test-support";

export const AUTHORS = 10;

export type HiderEcho = { id: string; author: number; words: string[]; likes: number };

/** The authors (users `<prefix><i>_<who>`) and `count` echos of `tag`, oldest first, echo i
 * holding `wordsOf(i)`, `apart` ms after the one before from `start`. Returns the authors' ids and the echos.
 * `shape` may give echo i another author than i % AUTHORS (`authorOf`) and more tags than `tag` (`tagsOf`, `tag` first). */
export async function writeHiderEchos(
  app: AppContext,
  tag: string,
  who: string,
  prefix: string,
  count: number,
  wordsOf: (i: number) => string[],
  start = Date.now() - 10_000_000,
  apart = 1000,
  shape: { authorOf?: (i: number) => number; tagsOf?: (i: number) => string[] } = {},
) {
  const authorOf = shape.authorOf ?? ((i: number) => i % AUTHORS);
  const tagsOf = (i: number) => [tag, ...(shape.tagsOf?.(i) ?? [])];
  const authors = Array.from({ length: AUTHORS }, (_, i) => newId(Date.now() - 1000 + i));
  const echos: HiderEcho[] = Array.from({ length: count }, (_, i) => ({ id: newId(start + i * apart), author: authorOf(i), words: wordsOf(i), likes: (i * 7) % 23 }));
  const names = [...new Set(echos.flatMap((_, i) => tagsOf(i)))];
  await batch(app.db, [
    ...names.map((name) => sql`INSERT INTO tags (name, created_at) VALUES (${name}, 0) ON CONFLICT DO NOTHING`),
    ...authors.map((id, i) => sql`INSERT INTO users (id, user_name, password_hash, created_at) VALUES (${id}, ${`${prefix}${i}_${who}`}, 'x', 1)`),
    ...echos.flatMap((e, i) => [
      sql`INSERT INTO echos (id, author_id, content, tags, created_at, likes_count) VALUES (${e.id}, ${authors[e.author]!}, ${`echo ${i} ${e.words.join(" ")}`}, ${JSON.stringify(tagsOf(i))}, ${start + i * apart}, ${e.likes})`,
      ...tagsOf(i).map(
        (name) => sql`INSERT INTO echo_tags (tag, echo_id, tags, likes_count, author_id) VALUES (${name}, ${e.id}, ${JSON.stringify(tagsOf(i))}, ${e.likes}, ${authors[e.author]!})`,
      ),
    ]),
  ]);
  return { authors, echos };
}

/** A block or unblock as modules/profile writes it (its triggers keep the viewer's hidden-author
 * set), with the `hiding` message its write sends (safety.server.test.ts) kept in `sent`. */
export async function blockFor(app: AppContext, sent: Change[], viewer: string, author: string, on: boolean) {
  await batch(app.db, [on ? sql`INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (${viewer}, ${author}, 1)` : sql`DELETE FROM blocks WHERE blocker_id = ${viewer} AND blocked_id = ${author}`]);
  sent.push({ type: "hiding", viewerIds: [viewer, author] });
}

/** A "hide" muted word of the viewer's, and its `hiding` message. */
export async function muteWordFor(app: AppContext, sent: Change[], viewer: string, phrase: string) {
  await batch(app.db, [
    sql`INSERT INTO muted_words (user_id, id, phrase, pattern, action, contexts, created_at) VALUES (${viewer}, ${newId(Date.now())}, ${phrase}, ${` ${phrase} `}, 'hide', 31, 1)`,
    ...rebuildMutedWordSet(viewer, Date.now()),
  ]);
  sent.push({ type: "hiding", viewerIds: [viewer] });
}

/** The scroll's pages by cursor (at most 40), none showing what `hidden` names, each ≤ 2 round trips and ≤ 200 rows. */
export async function pagesShowNone(env: Env, viewer: string, scrollId: string, hidden: Set<string>) {
  let cursor: string | undefined;
  for (let n = 0; n < 40; n++) {
    const { got, stats } = await measured(env, viewer, scrollId, 1, cursor);
    expect(stats.roundTrips).toBeLessThanOrEqual(2);
    expect(stats.rowsRead).toBeLessThanOrEqual(200);
    expect(got.echos.filter((e) => hidden.has(e._id))).toEqual([]);
    cursor = got.pagination.nextCursor ?? undefined;
    if (!cursor) break;
  }
}

/** Short pages with more to come among the scroll's first `pages` by cursor (before a viewer index: the ones that ask). */
export async function shortPages(env: Env, viewer: string, scrollId: string, pages = 12) {
  let short = 0;
  let cursor: string | undefined;
  for (let n = 0; n < pages; n++) {
    const { got } = await measured(env, viewer, scrollId, 1, cursor);
    if (got.echos.length < 20 && got.pagination.nextCursor) short++;
    cursor = got.pagination.nextCursor ?? undefined;
    if (!cursor) break;
  }
  return short;
}

/** The tests' change of what the viewer hides: a new block (author 6), an unblock (author 0) and a
 * third muted word ("gamma"), each with its message; `blocked` and `words` follow. */
export async function changeHiding(app: AppContext, sent: Change[], viewer: string, authors: string[], blocked: Set<number>, words: Set<string>) {
  await blockFor(app, sent, viewer, authors[6]!, true);
  blocked.add(6);
  await blockFor(app, sent, viewer, authors[0]!, false);
  blocked.delete(0);
  await muteWordFor(app, sent, viewer, "gamma");
  words.add("gamma");
}
