// Muted words in the lists (issue 32, docs/decisions/028-muted-words.md).
//
// A viewer's words for one context are read from ONE row (muted_word_sets) by a subquery that
// SQLite runs once per statement: D1 counts one row, whatever the viewer mutes. Each candidate
// is tested against them with `instr` on its folded words (echos.mute_text), which reads no row.
//
// The test is a fixed chain of MAX_MUTED_WORDS cases over `json_extract(x.s, '$[i]')`, the
// same text for every viewer (so statements can be rendered once per isolate), where x is a
// derived table of one row around the set. The derived table matters: a subquery repeated in
// each case would be run — and counted — once per case (100 rows), and a join of the set row
// would be probed once per candidate (a row each). A CASE stops at the first match, and a guard
// every 10 cases stops at the end of the viewer's list, so 3 words cost ~4 tests a candidate.
import { sql, type Placeholder, type SQL } from "drizzle-orm";
import { MAX_MUTED_WORDS, MUTE_CONTEXT_BITS, type MuteContext } from "./mute-text";
import { lit, textOf } from "./sql/statement.server";

type Viewer = string | Placeholder | SQL;

/** "No end": a muted word without expiry compares greater than any now. */
export const NO_END = 253_402_300_799_999;

const source = (viewerId: Viewer): SQL =>
  sql`(SELECT (SELECT sets FROM muted_word_sets WHERE user_id = ${viewerId}) AS s, unixepoch() * 1000 AS n LIMIT 1) x`;

/**
 * The CASE arms testing `col` against the set, an array of [pattern, end, phrase, context bits,
 * action]: `instr` first (a miss stops the arm there), then its end, context and action.
 */
function arms(action: "hide" | "warn", context: MuteContext, col: string, then: (i: number) => string, forGood = false): string {
  // (`forGood`: only the words without an end — a hiding viewer index leaves out what stays hidden)
  const live = forGood ? `= ${NO_END}` : "> x.n";
  const out: string[] = [];
  for (let i = 0; i < MAX_MUTED_WORDS; i++) {
    if (i % 10 === 0) out.push(`WHEN json_type(x.s, ${lit(`$[${i}]`)}) IS NULL THEN NULL`);
    out.push(
      `WHEN instr(${col}, json_extract(x.s, ${lit(`$[${i}][0]`)})) > 0 AND json_extract(x.s, ${lit(`$[${i}][1]`)}) ${live}` +
        ` AND json_extract(x.s, ${lit(`$[${i}][3]`)}) & ${MUTE_CONTEXT_BITS[context]} AND json_extract(x.s, ${lit(`$[${i}][4]`)}) = ${lit(action)} THEN ${then(i)}`,
    );
  }
  return out.join("\n");
}

const armsCache = new Map<string, string>();
const cachedArms = (action: "hide" | "warn", context: MuteContext, col: string, then: (i: number) => string, forGood = false) => {
  const key = `${action}:${context}:${col}:${forGood}`;
  let v = armsCache.get(key);
  if (v === undefined) armsCache.set(key, (v = arms(action, context, col, then, forGood)));
  return v;
};

/**
 * Whether the echo whose folded words are in `col` is shown to the viewer in `context`: their
 * own, or no "hide" word of theirs matches it (one's own echos are never muted). Goes in the statement's WHERE, before its LIMIT, so a page
 * steps over hidden echos and still fills.
 */
export const wordsVisible = (viewerId: Viewer, context: MuteContext, col = "e.mute_text", authorCol = "e.author_id", forGood = false): SQL =>
  sql`(${sql.raw(authorCol)} = ${viewerId} OR (SELECT CASE WHEN x.s IS NULL THEN NULL ${sql.raw(cachedArms("hide", context, col, () => "1", forGood))} END FROM ${source(viewerId)}) IS NULL)`;

/** `wordsVisible` as SQL text, for statements written as text (the feed engine): `viewerLiteral`
 * an escaped SQL string literal. */
export const wordsVisibleText = (viewerLiteral: string, context: MuteContext, col: string, authorCol: string, forGood = false): string =>
  textOf(wordsVisible(sql.raw(viewerLiteral), context, col, authorCol, forGood));

/**
 * The viewer's "warn" phrase the echo matches in `context` (the first one), or null: a column
 * of the page's SELECT (evaluated for the rows returned only). The card shows "Hidden: matches
 * <phrase>" with a disclosure.
 */
export const warnedWord = (viewerId: Viewer, context: MuteContext, col = "e.mute_text", authorCol = "e.author_id"): SQL<string | null> =>
  sql<string | null>`(SELECT CASE WHEN x.s IS NULL OR ${sql.raw(authorCol)} = ${viewerId} THEN NULL ${sql.raw(cachedArms("warn", context, col, (i) => `json_extract(x.s, ${lit(`$[${i}][2]`)})`))} END FROM ${source(viewerId)})`;

/**
 * Rewrites the user's compiled row from muted_words (their words that have not ended), or
 * deletes it when none is left: goes in the batch of every change of muted_words.
 */
export function rebuildMutedWordSet(userId: string, now: number): SQL[] {
  const live = sql`user_id = ${userId} AND (expires_at IS NULL OR expires_at > ${now})`;
  return [
    sql`INSERT INTO muted_word_sets (user_id, sets)
      SELECT ${userId}, json_group_array(json_array(pattern, ifnull(expires_at, ${NO_END}), phrase, contexts, action))
      FROM (SELECT * FROM muted_words WHERE ${live} ORDER BY id) WHERE true HAVING count(*) > 0
      ON CONFLICT (user_id) DO UPDATE SET sets = excluded.sets`,
    sql`DELETE FROM muted_word_sets WHERE user_id = ${userId} AND NOT EXISTS (SELECT 1 FROM muted_words WHERE ${live})`,
  ];
}
