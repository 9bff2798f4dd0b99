// Test data for a heavy hider's feed (issue 32: decision 033's hiding index, decision 034's fill):
// `count` echos of one tag by AUTHORS authors in turn (echo i by author i % 10), some carrying
// words the hider may mute, likes spread so the most-liked order differs from time. Written with
// SQL (more echos than the post limit allows), each tag row carrying its author as a post writes it.
import { newId } from "../shared/index";
import { batch, sql, type AppContext } from "../shared/index.server";

export const AUTHORS = 10;

export type HiderEcho = { id: string; author: number; words: string[]; likes: number };

/** The authors (users `<prefix><i>_<who>`) and `count` echos of `tag`, oldest first, echo i
 * holding `wordsOf(i)`, `apart` ms after the one before from `start`. Returns the authors' ids and the echos. */
export async function writeHiderEchos(
  app: AppContext,
  tag: string,
  who: string,
  prefix: string,
  count: number,
  wordsOf: (i: number) => string[],
  start = Date.now() - 10_000_000,
  apart = 1000,
) {
  const authors = Array.from({ length: AUTHORS }, (_, i) => newId(Date.now() - 1000 + i));
  const echos: HiderEcho[] = Array.from({ length: count }, (_, i) => ({ id: newId(start + i * apart), author: i % AUTHORS, words: wordsOf(i), likes: (i * 7) % 23 }));
  await batch(app.db, [
    sql`INSERT INTO tags (name, created_at) VALUES (${tag}, 0) ON CONFLICT DO NOTHING`,
    ...authors.map((id, i) => sql`INSERT INTO users (id, user_name, password_hash, created_at) VALUES (${id}, ${`${prefix}${i}_${who}`}, 'x', 1)`),
    ...echos.flatMap((e, i) => [
      sql`INSERT INTO echos (id, author_id, content, tags, created_at, likes_count) VALUES (${e.id}, ${authors[e.author]!}, ${`echo ${i} ${e.words.join(" ")}`}, ${JSON.stringify([tag])}, ${start + i * apart}, ${e.likes})`,
      sql`INSERT INTO echo_tags (tag, echo_id, tags, likes_count, author_id) VALUES (${tag}, ${e.id}, ${JSON.stringify([tag])}, ${e.likes}, ${authors[e.author]!})`,
    ]),
  ]);
  return { authors, echos };
}
