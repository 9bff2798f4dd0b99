// An account's removal after its deletion (issue 28, docs/decisions/032-bounded-deletes.md). The
// request only marks the account (renamed, no password, no sessions: gone for sign-in, profile and
// mentions at once) and starts the `purge:<id>` chain; each `purge` step of the change stream
// (the runner, runPurgeSteps) then deletes a slice of every kind of row the account has, newest
// echos first, and the last step deletes the account's row. Every row leaves by an ordinary
// DELETE, so the counter triggers keep every count others see exact (likes, followers, tags,
// replies, notification groups) and an echo with replies leaves its tombstone ("This echo was
// deleted"). An echo too big for a step (DELETE_INLINE) is handed to its own `echo:<id>` chain, as
// one echo's deletion is, so a step's cost does not depend on what any one echo holds.
import {
  chainKey, DELETED_ACCOUNT, echoDeleted, inlineDeletable, runPurgeSteps, sql, startChain, unmarkDeleted,
  type AppContext, type Change, type ChainSlice, type Db, type PurgeChain, type SQL,
} from "../shared/index.server";

/** Rows of each kind (likes, follows, notifications…) one step deletes. */
export const PURGE_SLICE = 200;
/**
 * The account's newest echos one step looks at (its window): those with at most DELETE_INLINE
 * likes, reposts and shares are deleted there with their cascade (a few dozen rows each); each
 * bigger one gets its own `echo:<id>` chain (as one echo's deletion does), and the account waits
 * for them. So at most this many of an account's echos have chains at once.
 */
export const PURGE_ECHOS = 50;

/** The key of an account's removal chain in `stream_chains`. */
export const purgeChain = chainKey.account;

/** The request's share: the chain that removes the account, started in the deletion's batch if `when`. */
export const startPurge = (userId: string, now: number, when: SQL): SQL => startChain(purgeChain(userId), { type: "purge", userId }, now, when);

/**
 * One step's deletions for account `u`, each at most its slice, in an order that leaves the
 * account's echos last (their likes by others, by then, are what remains of them). Every statement
 * is guarded by the mark, so a step that comes for an account not deleted does nothing.
 */
function slices(u: string): ChainSlice[] {
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
    // the account's reposts (the users row's cascade took them all at once): each one's trigger takes
    // its echo's count down; they leave their readers' Following through `unfanout`, as an undo does
    { ...del("reposts", sql`DELETE FROM reposts WHERE id IN (SELECT id FROM reposts WHERE user_id = ${u} ORDER BY id LIMIT ${s})`), id: sql<string>`id` },
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
    ...echoSlices(u, marked),
  ];
}

/**
 * The account's echos, newest first (what others saw last goes first), PURGE_ECHOS at a time: the
 * window's small ones deleted here, each big one handed to its own chain (which deletes its rows a
 * slice at a time and, at its end, sends the account's next step). An echo whose own deletion
 * marked it is its own chain's (its counts already went down in that request).
 */
function echoSlices(u: string, marked: SQL): ChainSlice[] {
  const w = PURGE_ECHOS;
  const window = sql`SELECT id FROM echos WHERE author_id = ${u} ORDER BY id DESC LIMIT ${w}`;
  const chained = (id: SQL) => sql`EXISTS (SELECT 1 FROM stream_chains WHERE key = ${chainKey.echo("")} || ${id})`;
  return [
    // another step follows only if the window is full and this step moves it on (deletes or
    // hands on one of its echos); a window of chained echos waits for their chains instead
    {
      kind: "echo window",
      limit: w,
      probe: true,
      statement: sql`SELECT NULL AS id FROM (${window}) WHERE ${marked} AND (SELECT count(*) FROM (${window})) = ${w}
        AND EXISTS (SELECT 1 FROM (${window}) x WHERE NOT ${chained(sql`x.id`)} AND NOT ${echoDeleted(sql`x.id`)})`,
    },
    {
      kind: "echo chains",
      limit: w,
      id: sql<string>`substr(key, ${chainKey.echo("").length + 1})`,
      statement: sql`INSERT INTO stream_chains (key, change, updated_at)
        SELECT ${chainKey.echo("")} || e.id, json_object('type', 'purgeEcho', 'echoId', e.id), ${Date.now()}
        FROM (${window}) x CROSS JOIN echos e ON e.id = x.id
        WHERE NOT (${inlineDeletable("e")}) AND ${marked}
        ON CONFLICT (key) DO NOTHING`,
    },
    {
      kind: "echos",
      limit: w,
      id: sql<string>`id`,
      statement: sql`DELETE FROM echos WHERE id IN (${window}) AND ${inlineDeletable("echos")}
        AND NOT ${chained(sql`echos.id`)} AND NOT ${echoDeleted(sql`echos.id`)} AND ${marked}`,
    },
  ];
}

const accountPurge: PurgeChain = {
  key: purgeChain,
  next: (userId) => ({ type: "purge", userId }),
  slices,
  exists: (u) => sql`EXISTS (SELECT 1 FROM users WHERE id = ${u})`,
  told: (_, ids) => {
    const told: Change[] = [
      ...(ids["echo chains"] ?? []).map((echoId): Change => ({ type: "purgeEcho", echoId })),
      // (a repost's id is its place in the timelines, as an echo's is)
      ...(ids.reposts ?? []).map((echoId): Change => ({ type: "unfanout", echoId })),
    ];
    const liked = [...new Set(ids.likes ?? [])];
    // the feed indexes (most-liked orders) and Following timelines hear of what left (decision 020)
    if (liked.length > 0) told.push({ type: "likes", echoIds: liked });
    const gone = ids.echos ?? [];
    if (gone.length > 0) told.push({ type: "delete", echoIds: gone }, ...gone.map((echoId): Change => ({ type: "unfanout", echoId })));
    return told;
  },
  // the row goes once its echos have (what came in between cascades with it: a handful of rows);
  // while its big echos' chains run it stays, and the last of them sends the next step
  last: (u) => {
    const gone = sql`NOT EXISTS (SELECT 1 FROM users WHERE id = ${u})`;
    return [
      sql`DELETE FROM users WHERE id = ${u} AND deleted_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM echos WHERE author_id = ${u})`,
      // the mark that kept its echos out of every list meanwhile (a deleted account's rows are gone now)
      sql`${unmarkDeleted(`u:${u}`, DELETED_ACCOUNT)} AND ${gone}`,
    ];
  },
  ended: { kind: "accounts", told: () => [] },
};

/**
 * The `purge` steps of a queue batch (or the repair pass's replay): for each account, one batch of
 * slices; if any slice was full another step follows, else the account's row goes and the chain
 * ends — once its echos are gone. Idempotent: a step repeated deletes what is left. Returns the
 * rows deleted per kind.
 */
export async function consumeAccountPurges(app: Pick<AppContext, "env" | "ctx">, db: Db, changes: Change[]): Promise<Record<string, number>> {
  return runPurgeSteps(app, db, accountPurge, changes.flatMap((c) => (c.type === "purge" ? [c.userId] : [])));
}
