// An account's removal after its deletion (issue 28, docs/decisions/032-bounded-deletes.md). The
// request only marks the account (renamed, no password, no sessions: gone for sign-in, profile and
// mentions at once) and starts the `purge:<id>` chain; each `purge` step of the change stream
// then deletes a slice of every kind of row the account has, newest echos first, and the last
// step deletes the account's row. Every row leaves by an ordinary DELETE, so the counter
// triggers keep every count others see exact (likes, followers, tags, replies, notification
// groups) and an echo with replies leaves its tombstone ("This echo was deleted").
import { batch, DELETED_ACCOUNT, returning, sendChanges, sql, startChain, tables, unmarkDeleted, type AppContext, type Change, type Db, type SQL } from "../shared/index.server";

/** Rows of each kind (likes, follows, notifications…) one step deletes. */
export const PURGE_SLICE = 200;
/**
 * Echos one step deletes: each takes its own likes, shares, tags, edits and places in curations
 * with it (the FK cascade, as deleting one echo does), so a step's cost is bounded by these echos'
 * own counts; their Following rows leave through `unfanout` messages.
 */
export const PURGE_ECHOS = 50;

/** The key of an account's removal chain in `stream_chains`. */
export const purgeChain = (userId: string) => `purge:${userId}`;

/** The request's share: the chain that removes the account, started in the deletion's batch if `when`. */
export const startPurge = (userId: string, now: number, when: SQL): SQL => startChain(purgeChain(userId), { type: "purge", userId }, now, when);

/**
 * One step's deletions for account `u`, each at most its slice, in an order that leaves the
 * account's echos last (their likes by others, by then, are what remains of them). Every statement
 * is guarded by the mark, so a step that comes for an account not deleted does nothing.
 */
function slices(u: string): { kind: string; limit: number; statement: SQL; id?: SQL<string> }[] {
  const marked = sql`EXISTS (SELECT 1 FROM users WHERE id = ${u} AND deleted_at IS NOT NULL)`;
  const s = PURGE_SLICE;
  // a slice of a user's rows in table `t` by the index whose first column is `col`: the key's
  // remaining columns name the rows (row values), so each row read is one index entry
  const slice = (table: string, col: string, key: string, limit = s, extra = sql``) =>
    sql.raw(`DELETE FROM ${table} WHERE (${key}) IN (SELECT ${key} FROM ${table} WHERE ${col} = `).append(sql`${u}`).append(extra).append(sql.raw(` LIMIT ${limit})`));
  const del = (kind: string, statement: SQL, limit = s) => ({ kind, limit, statement: sql`${statement} AND ${marked}` });
  return [
    // the rules naming the account forget its name (the users row's delete trigger did it all at
    // once, migration 0016): the names first, the slice's links after, the same rows by key order
    del("rule names", sql`UPDATE scrolls SET author_names = (SELECT json_group_array(json(j.value)) FROM json_each(scrolls.author_names) j
        WHERE json_extract(j.value, '$[0]') != ${u})
      WHERE id IN (SELECT scroll_id FROM scroll_authors WHERE author_id = ${u} ORDER BY scroll_id LIMIT ${s})`),
    del("rule authors", sql`DELETE FROM scroll_authors WHERE author_id = ${u}
      AND scroll_id IN (SELECT scroll_id FROM scroll_authors WHERE author_id = ${u} ORDER BY scroll_id LIMIT ${s})`),
    // the account's likes of others' echos (and of its own): each one's count goes down by trigger
    { ...del("likes", slice("likes", "user_id", "echo_id, user_id")), id: sql<string>`echo_id` },
    // shares have no delete trigger (a share is never undone): the count of each echo in the slice
    // goes down first, the slice's rows after (one transaction, the same rows: by key order)
    del("share counts", sql`UPDATE echos SET shares_count = shares_count - 1
      WHERE id IN (SELECT echo_id FROM shares WHERE user_id = ${u} ORDER BY echo_id LIMIT ${s}) AND author_id <> ${u}`),
    del("shares", sql`DELETE FROM shares WHERE user_id = ${u} AND echo_id IN (SELECT echo_id FROM shares WHERE user_id = ${u} ORDER BY echo_id LIMIT ${s})`),
    del("reports", slice("reports", "user_id", "echo_id, user_id")),
    del("following", slice("user_follows", "follower_id", "follower_id, followee_id")),
    del("followers", slice("user_follows", "followee_id", "follower_id, followee_id")),
    del("scroll follows", slice("scroll_follows", "user_id", "scroll_id, user_id")),
    del("blocks", slice("blocks", "blocker_id", "blocker_id, blocked_id")),
    del("blocked by", slice("blocks", "blocked_id", "blocker_id, blocked_id")),
    del("mutes", slice("mutes", "muter_id", "muter_id, muted_id")),
    del("muted by", slice("mutes", "muted_id", "muter_id, muted_id")),
    // what the account did that notified others (mentions, replies; likes and follows went above)
    del("notifications sent", sql`DELETE FROM notifications WHERE rowid IN (SELECT rowid FROM notifications WHERE actor_id = ${u} LIMIT ${s})`),
    del("notifications", sql`DELETE FROM notifications WHERE rowid IN (SELECT rowid FROM notifications WHERE recipient_id = ${u} LIMIT ${s})`),
    del("notification groups", slice("notification_groups", "recipient_id", "recipient_id, kind, group_key")),
    del("timeline", slice("timeline_entries", "owner_id", "owner_id, echo_id", 2 * s)),
    // the account's scrolls: their items and followers first, then the scrolls (each cascade small)
    del("curation items", sql`DELETE FROM scroll_echos WHERE (scroll_id, echo_id) IN (SELECT se.scroll_id, se.echo_id
      FROM scrolls c CROSS JOIN scroll_echos se ON se.scroll_id = c.id WHERE c.creator_id = ${u} LIMIT ${s})`),
    del("scroll followers", sql`DELETE FROM scroll_follows WHERE (scroll_id, user_id) IN (SELECT f.scroll_id, f.user_id
      FROM scrolls c CROSS JOIN scroll_follows f ON f.scroll_id = c.id WHERE c.creator_id = ${u} LIMIT ${s})`),
    del("scrolls", sql`DELETE FROM scrolls WHERE id IN (SELECT c.id FROM scrolls c WHERE c.creator_id = ${u}
      AND NOT EXISTS (SELECT 1 FROM scroll_echos se WHERE se.scroll_id = c.id)
      AND NOT EXISTS (SELECT 1 FROM scroll_follows f WHERE f.scroll_id = c.id) LIMIT 20)`, 20),
    // newest first: what others saw last goes first
    {
      ...del("echos", sql`DELETE FROM echos WHERE id IN (SELECT id FROM echos WHERE author_id = ${u} ORDER BY id DESC LIMIT ${PURGE_ECHOS})`, PURGE_ECHOS),
      id: sql<string>`id`,
    },
  ];
}

/**
 * The `purge` steps of a queue batch (or the repair pass's replay): for each account, one batch of
 * slices; if any slice was full another step follows (its message sent, the chain moved), else
 * the account's row goes (what came in between cascades with it, a handful of rows) and the chain
 * ends. Idempotent: a step repeated deletes what is left. Returns the rows deleted per kind.
 */
export async function consumeAccountPurges(app: Pick<AppContext, "env" | "ctx">, db: Db, changes: Change[]): Promise<Record<string, number>> {
  const userIds = [...new Set(changes.flatMap((c) => (c.type === "purge" ? [c.userId] : [])))];
  const deleted: Record<string, number> = {};
  const next: Change[] = [];
  const done: string[] = [];
  for (const u of userIds) {
    const steps = slices(u);
    const now = Date.now();
    const results = (await batch(db, [
      ...steps.map((step) => returning(step.statement, { id: step.id ?? sql<string>`NULL` })),
      sql`UPDATE stream_chains SET updated_at = ${now} WHERE key = ${purgeChain(u)}`,
    ])) as { id: string | null }[][];
    let full = false;
    const likedEchos: string[] = [];
    const gone: string[] = [];
    steps.forEach((step, i) => {
      const rows = results[i]!;
      deleted[step.kind] = (deleted[step.kind] ?? 0) + rows.length;
      if (rows.length >= step.limit) full = true;
      if (step.kind === "likes") likedEchos.push(...rows.flatMap((r) => (r.id ? [r.id] : [])));
      if (step.kind === "echos") gone.push(...rows.flatMap((r) => (r.id ? [r.id] : [])));
    });
    // the feed indexes (most-liked orders) and Following timelines hear of what left (decision 020)
    if (likedEchos.length > 0) next.push({ type: "likes", echoIds: [...new Set(likedEchos)] });
    if (gone.length > 0) next.push({ type: "delete", echoIds: gone }, ...gone.map((echoId): Change => ({ type: "unfanout", echoId })));
    if (full) next.push({ type: "purge", userId: u });
    else done.push(u);
  }
  if (done.length > 0) {
    const last = await batch(db, [
      ...done.flatMap((u) => [
        returning(sql`DELETE FROM users WHERE id = ${u} AND deleted_at IS NOT NULL`, { id: tables.users.id }),
        sql`DELETE FROM stream_chains WHERE key = ${purgeChain(u)}`,
        // the mark that kept its echos out of every list meanwhile (a deleted account's rows are gone now)
        unmarkDeleted(`u:${u}`, DELETED_ACCOUNT),
      ]),
    ]);
    deleted.accounts = (last as unknown[][]).filter((rows, i) => i % 3 === 0 && rows.length > 0).length;
  }
  sendChanges(app, next);
  return deleted;
}
