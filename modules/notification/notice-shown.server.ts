// Notification groups' `shown` state after a hiding change (issue 32, docs/decisions/015-notifications.md
// "Shown groups kept on write"). The group's trigger (migration 0041) computes whether its
// recipient's list shows it on every change of the group; a mute, a muted word or a moderator's
// action changes the answer for groups that did not change, so their states are recomputed here:
// a chain of the change stream (decision 032) started in the write's own batch, whose step writes
// `latest_at` to itself on a slice of groups (the trigger recomputes `shown` and the count) and
// moves the chain, atomic with it. A lost message is replayed by the repair pass (stalled chains).
import { newId } from "../shared/index";
import { batch, returning, select, sendChanges, sql, startChain, type AppContext, type Change, type Db, type SQL } from "../shared/index.server";

/** Groups (or an actor's notifications) one step recomputes: each is a few rows of the trigger's test. */
export const NOTICE_REFRESH_SLICE = 250;

type RecipientRefresh = Extract<Change, { type: "noticeShown" }>;
type ActorRefresh = Extract<Change, { type: "noticeActor" }>;
type Refresh = RecipientRefresh | ActorRefresh;

const chainOf = (c: Refresh) => (c.type === "noticeShown" ? `notices:${c.recipientId}` : `notice-actor:${c.actorId}`);

/**
 * A refresh of the recipient's groups (a mute or unmute, a muted word added or removed, a timed
 * mute's end): `start(when)`, the statement that starts its chain when `when` holds, for the
 * write's batch (a newer one restarts it from the first group), and `change`, the message to send
 * once the batch committed.
 */
export function refreshRecipient(recipientId: string, now: number): { start: (when: SQL) => SQL; change: Change } {
  return refreshOf({ type: "noticeShown", recipientId, after: null, gen: newId(now) }, now);
}

/** The same for every group an actor's notifications belong to (a moderator limits, suspends or lifts the account). */
export function refreshActor(actorId: string, now: number): { start: (when: SQL) => SQL; change: Change } {
  return refreshOf({ type: "noticeActor", actorId, after: null, gen: newId(now) }, now);
}

const refreshOf = (change: Refresh, now: number) => ({ start: (when: SQL) => startChain(chainOf(change), change, now, when), change });

/** The slice's source after the step's position, in its order: a recipient's groups by key, an actor's notifications by rowid. */
function sliceOf(c: Refresh, limit: number): { from: SQL; key: SQL; order: SQL; limit: number } {
  if (c.type === "noticeShown") {
    const after = c.after ? sql`AND (kind, group_key) > (${c.after[0]}, ${c.after[1]})` : sql``;
    return { from: sql`FROM notification_groups WHERE recipient_id = ${c.recipientId} ${after}`, key: sql`json_array(kind, group_key)`, order: sql`ORDER BY kind, group_key`, limit };
  }
  return { from: sql`FROM notifications WHERE actor_id = ${c.actorId} AND rowid > ${c.after ?? 0}`, key: sql`rowid`, order: sql`ORDER BY rowid`, limit };
}

/** The groups of the slice, by rowid (direct probes, not a scan of the recipient's range). */
function groupsOf(c: Refresh, slice: ReturnType<typeof sliceOf>): SQL {
  if (c.type === "noticeShown") return sql`SELECT rowid ${slice.from} ${slice.order} LIMIT ${slice.limit}`;
  return sql`SELECT g.rowid FROM (SELECT recipient_id, kind, group_key ${slice.from} ${slice.order} LIMIT ${slice.limit}) n
    JOIN notification_groups g ON g.recipient_id = n.recipient_id AND g.kind = n.kind AND g.group_key = n.group_key`;
}

/**
 * One step of each refresh among `changes` (a queue batch's, or the repair pass's replay), all in
 * one batch: the slice recomputed, the chain moved to the slice's last (only a chain still of this
 * run, `gen`), or ended when the slice was not full. The next steps' messages after. Returns the
 * steps run. (`slice`: a test's smaller one, to walk a chain of many steps over few groups.)
 */
export async function consumeNoticeRefreshes(app: Pick<AppContext, "env" | "ctx">, db: Db, changes: Change[], now = Date.now(), slice = NOTICE_REFRESH_SLICE): Promise<number> {
  const steps = [...new Map(changes.flatMap((c) => (c.type === "noticeShown" || c.type === "noticeActor" ? [[`${chainOf(c)}\n${c.gen}\n${JSON.stringify(c.after)}`, c] as const] : []))).values()];
  if (steps.length === 0) return 0;
  const statements = steps.flatMap((c) => {
    const part = sliceOf(c, slice);
    const last = sql`(SELECT ${part.key} ${part.from} ${part.order} LIMIT 1 OFFSET ${slice - 1})`;
    // the chain of this run, where this step starts: a repeated or late message of an earlier step
    // still recomputes its slice (harmless) but moves nothing, and a newer run (`gen`) is left alone
    const ours = sql`key = ${chainOf(c)} AND json_extract(change, '$.gen') = ${c.gen}`;
    const at = c.after === null ? sql`IS NULL` : sql`= ${typeof c.after === "number" ? c.after : JSON.stringify(c.after)}`;
    return [
      // the trigger runs on any write of latest_at (migration 0041): shown and the count recomputed
      sql`UPDATE notification_groups SET latest_at = latest_at WHERE rowid IN (${groupsOf(c, part)})`,
      select({ last: sql<string | number | null>`${last}` }, sql``),
      returning(sql`UPDATE stream_chains SET change = json_set(change, '$.after', ${c.type === "noticeShown" ? sql`json(${last})` : last}), updated_at = ${now} WHERE ${ours} AND json_extract(change, '$.after') ${at}`, { key: sql<string>`key` }),
      sql`DELETE FROM stream_chains WHERE ${ours} AND json_type(change, '$.after') = 'null'`,
    ];
  });
  const results = (await batch(db, statements)) as unknown[][];
  const next: Change[] = [];
  steps.forEach((c, i) => {
    const last = (results[4 * i + 1] as { last: string | number | null }[])[0]?.last ?? null;
    const moved = (results[4 * i + 2] as unknown[]).length > 0;
    if (!moved || last === null) return;
    next.push(c.type === "noticeShown" ? { ...c, after: JSON.parse(String(last)) as [string, string] } : { ...c, after: Number(last) });
  });
  sendChanges(app, next);
  return steps.length;
}

/**
 * The refreshes of the viewers whose timed mutes ended (the cron's pruning, before it deletes
 * them): a group hidden by such a mute was stored not shown, and shows again once its refresh ran.
 * One statement for the pass's muters; it returns the messages to send.
 */
export function refreshEndedMutes(now: number) {
  const gen = newId(now);
  return returning(
    sql`INSERT INTO stream_chains (key, change, updated_at)
      SELECT 'notices:' || muter_id, json_object('type', 'noticeShown', 'recipientId', muter_id, 'after', json('null'), 'gen', ${gen} || muter_id), ${now}
      FROM mutes WHERE expires_at IS NOT NULL AND expires_at <= ${now} GROUP BY muter_id
      ON CONFLICT (key) DO UPDATE SET change = excluded.change, updated_at = excluded.updated_at`,
    { change: sql<string>`change` },
  );
}
