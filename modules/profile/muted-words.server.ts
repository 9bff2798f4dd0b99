// Muted words (issue 32, docs/decisions/028-muted-words.md): the settings list and its writes.
// muted_words is the truth; every write rewrites the user's compiled row (muted_word_sets) in
// the same batch, which is what the lists read (shared/muted-words.server.ts).
import { badRequest, isId, MAX_MUTED_WORDS, MUTE_CONTEXT_BITS, MUTE_CONTEXTS, mutePattern, newId, type MuteContext } from "../shared/index";
import { refreshRecipient } from "../notification/index.server";
import { batch, batchUnderLimit, rebuildMutedWordSet, select, sendChanges, sql, tables, type AppContext } from "../shared/index.server";
import { MUTE_DURATION_MS, type AddMutedWordInput, type MutedWord } from "./schema";

const w = tables.mutedWords;

const listQuery = (userId: string, now: number) =>
  select(
    { id: w.id, phrase: w.phrase, action: w.action, contexts: w.contexts, createdAt: w.createdAt, expiresAt: w.expiresAt },
    sql`FROM muted_words WHERE ${w.userId} = ${userId} AND (${w.expiresAt} IS NULL OR ${w.expiresAt} > ${now}) ORDER BY ${w.id} DESC`,
  );

type Row = { id: string; phrase: string; action: "hide" | "warn"; contexts: number; createdAt: number; expiresAt: number | null };

const toWord = (r: Row): MutedWord => ({
  _id: r.id,
  phrase: r.phrase,
  action: r.action,
  contexts: MUTE_CONTEXTS.filter((c) => (r.contexts & MUTE_CONTEXT_BITS[c]) !== 0),
  createdAt: new Date(r.createdAt).toISOString(),
  expiresAt: r.expiresAt === null ? null : new Date(r.expiresAt).toISOString(),
});

/** The viewer's muted words that have not ended, newest first (at most MAX_MUTED_WORDS: one page). */
export async function listMutedWords(app: AppContext, viewerId: string): Promise<{ words: MutedWord[] }> {
  const [rows] = await batch(app.db, [listQuery(viewerId, Date.now())]);
  return { words: rows.map(toWord) };
}

/**
 * Mute a phrase or #tag. The same phrase again (the same folded pattern: "Café" and "cafe" are
 * one) replaces its options and keeps its id. Past MAX_MUTED_WORDS: 400, nothing written.
 */
export async function addMutedWord(app: AppContext, viewerId: string, input: AddMutedWordInput): Promise<MutedWord> {
  const pattern = mutePattern(input.phrase);
  if (pattern === null) throw badRequest("phrase must contain a letter or a digit");
  const now = Date.now();
  const expiresAt = input.duration === "forever" ? null : now + MUTE_DURATION_MS[input.duration];
  const contexts = input.contexts.reduce((bits, c: MuteContext) => bits | MUTE_CONTEXT_BITS[c], 0);
  // the viewer's notification groups' shown state, recomputed through the change stream (decision 015)
  const notices = refreshRecipient(viewerId, now);
  const results = await batchUnderLimit(app.db, "mutedWord", viewerId, (within) => [
    sql`DELETE FROM muted_words WHERE user_id = ${viewerId} AND expires_at IS NOT NULL AND expires_at <= ${now} AND ${within}`,
    sql`INSERT INTO muted_words (user_id, id, phrase, pattern, action, contexts, created_at, expires_at)
      SELECT ${viewerId}, ${newId(now)}, ${input.phrase}, ${pattern}, ${input.action}, ${contexts}, ${now}, ${expiresAt}
      WHERE ${within} AND (EXISTS (SELECT 1 FROM muted_words WHERE user_id = ${viewerId} AND pattern = ${pattern})
        OR (SELECT count(*) FROM muted_words WHERE user_id = ${viewerId}) < ${MAX_MUTED_WORDS})
      ON CONFLICT (user_id, pattern) DO UPDATE SET phrase = excluded.phrase, action = excluded.action,
        contexts = excluded.contexts, expires_at = excluded.expires_at`,
    ...rebuildMutedWordSet(viewerId, now),
    notices.start(sql`${within} AND EXISTS (SELECT 1 FROM muted_words WHERE user_id = ${viewerId} AND pattern = ${pattern})`),
    select(
      { id: w.id, phrase: w.phrase, action: w.action, contexts: w.contexts, createdAt: w.createdAt, expiresAt: w.expiresAt },
      sql`FROM muted_words WHERE ${w.userId} = ${viewerId} AND ${w.pattern} = ${pattern}`,
    ),
  ]);
  const row = results[results.length - 1]![0] as Row | undefined;
  if (!row) throw badRequest(`You can mute at most ${MAX_MUTED_WORDS} words`);
  // the viewer's hiding viewer indexes are made again (decision 033)
  sendChanges(app, [{ type: "hiding", viewerIds: [viewerId] }, notices.change]);
  return toWord(row);
}

/** Unmute a word (idempotent: a word already gone answers the same). */
export async function removeMutedWord(app: AppContext, viewerId: string, wordId: string): Promise<{ ok: true }> {
  if (!isId(wordId)) return { ok: true };
  const now = Date.now();
  const notices = refreshRecipient(viewerId, now);
  await batchUnderLimit(app.db, "mutedWord", viewerId, (within) => [
    sql`DELETE FROM muted_words WHERE user_id = ${viewerId} AND id = ${wordId} AND ${within}`,
    ...rebuildMutedWordSet(viewerId, now),
    notices.start(within),
  ]);
  sendChanges(app, [{ type: "hiding", viewerIds: [viewerId] }, notices.change]);
  return { ok: true };
}

/** Viewers whose ended words one cron pass prunes (each: one delete, the set rebuilt, a refresh started). */
export const ENDED_WORDS_PER_PASS = 50;

/**
 * The cron's pruning of words that ended (a timed word): the lists stopped hiding by them at their
 * end, but notification groups they hid were stored as not shown (decision 015, "Shown groups kept
 * on write"): each viewer's words that ended go, their set is rebuilt and their groups' refresh
 * starts, in one batch. Returns the viewers pruned.
 */
export async function pruneEndedWords(app: Pick<AppContext, "db" | "env" | "ctx">, now: number): Promise<number> {
  const [ended] = await batch(app.db, [
    select({ userId: w.userId }, sql`FROM muted_words WHERE ${w.expiresAt} IS NOT NULL AND ${w.expiresAt} <= ${now} GROUP BY ${w.userId} LIMIT ${ENDED_WORDS_PER_PASS}`),
  ]);
  if (ended.length === 0) return 0;
  const refreshes = ended.map(({ userId }) => ({ userId, notices: refreshRecipient(userId, now) }));
  await batch(
    app.db,
    refreshes.flatMap(({ userId, notices }) => [
      sql`DELETE FROM muted_words WHERE user_id = ${userId} AND expires_at IS NOT NULL AND expires_at <= ${now}`,
      ...rebuildMutedWordSet(userId, now),
      notices.start(sql`true`),
    ]),
  );
  sendChanges(app, refreshes.map((r) => r.notices.change));
  return ended.length;
}
