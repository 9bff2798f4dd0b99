// The change stream (issue 27, docs/decisions/020-feed-index.md): after a write commits, what it
// changed goes on a Cloudflare Queue (`FEED_EVENTS`), and derived stores — the feed index first —
// are kept from it by its consumer, not inside the write's batch and not by triggers, so they can
// later live in other databases. A message can be lost (a send that fails, a local runtime
// killed before its queue drained) or come twice: consumers are idempotent, and a scheduled
// repair pass finds and fixes drift from the store.
import { sql, type SQL } from "drizzle-orm";
import type { AppContext, Db } from "./context.server";
import { batch } from "./sql/batch.server";
import { select } from "./sql/statement.server";

/** An echo as the stream carries it: what a feed rule looks at (`parentId`: a reply's parent;
 * absent from messages sent before feeds had the option: read as a top-level echo, and the
 * repair pass's replay carries it). */
export type ChangedEcho = { id: string; authorId: string; tags: string[]; createdAt: number; parentId?: string | null };

export type Change =
  | { type: "post"; echo: ChangedEcho }
  | { type: "delete"; echoIds: string[] }
  /** these echos' like counts changed: the consumer reads them now (so order and repeats do not
   * matter); `userId`, the user who liked or unliked them (absent from a replay: decision 033) */
  | { type: "likes"; echoIds: string[]; userId?: string }
  /** these echos' text or tags changed (decision 025): the consumer reads them now and puts each
   * in the indexes it now matches, and only those */
  | { type: "edit"; echoIds: string[] }
  /** build (or go on building) the index of a rule, from `cursor` down */
  | { type: "backfill"; ruleKey: string; cursor: string | null }
  /** a reader's pages near a ready index's frontier `floor`: extend it by another slice, `left`
   * entries of it still to write (absent: a new extension; decision 020, "Deeper on demand") */
  | { type: "extend"; ruleKey: string; floor: string; left?: number }
  /** a viewer index (decision 033): make the viewer's index of a rule (`floor` null), or walk it on
   * from `floor` (`left` entries still to write; absent: a slice), or only note it was read (`touch`);
   * `hide`: the hiding kind (less what the viewer hides for good), else the hide-liked kind;
   * `eager`: made on like, before any page asked (never evicting one of the viewer's) */
  | { type: "viewer"; ruleKey: string; viewerId: string; floor: string | null; left?: number; touch?: true; hide?: true; liked?: true; eager?: true }
  /** a liker's check for runs too dense (decision 033, "Made on like") going on past the (index,
   * echo) pair `after` names in its order (`k`: the echo's place among the index's, then the index),
   * `left` messages at most still to go */
  | { type: "dense"; userId: string; echoIds: string[]; after: { k: number; index: number }; left: number }
  /** the cron's walk over existing likes (decision 033, "The walk over existing likes"): these
   * readers' runs of one shared index, around the liked entry each names, to check */
  | { type: "runs"; indexId: number; ruleKey: string; at: { viewerId: string; echoId: string; rank: number }[] }
  /** these users blocked, muted or changed muted words (or were blocked): their hiding viewer
   * indexes (`hide`, decision 033) are emptied and made again */
  | { type: "hiding"; viewerIds: string[] }
  /** a reader's page of a ready index without its near marker (built before migration 0036): write it */
  | { type: "mark"; ruleKey: string; floor: string }
  /** the Following timelines (decision 013): the echo joins those of its author's followers after `after` (by id), a slice at a time.
   * With `repost` (decision 027), `echoId` is a repost's id and `authorId` the reposter */
  | { type: "fanout"; echoId: string; authorId: string; after: string; parentId?: string; repost?: true }
  /** the Following timelines: the deleted echo's (or undone repost's) rows leave them, a slice at a time */
  | { type: "unfanout"; echoId: string }
  /** a deleted account's rows leave, a slice of each kind a step, the account's row last (decision 032) */
  | { type: "purge"; userId: string }
  /** a deleted echo's rows leave, a slice of each kind a step, the echo's row last (decision 032, "One echo") */
  | { type: "purgeEcho"; echoId: string }
  /** notification groups' shown state recomputed after a hiding change (decision 015, "Shown groups
   * kept on write"), a slice a step: a recipient's groups after (kind, group key) `after`, or an
   * actor's notifications' groups after their rowid `after`; `gen` names the chain's run (a newer
   * change restarts it) */
  | { type: "noticeShown"; recipientId: string; after: [string, string] | null; gen: string }
  | { type: "noticeActor"; actorId: string; after: number | null; gen: string };

/**
 * Send after the write's answer is on its way (waitUntil): the write's latency and round trips do
 * not change. A failed send is logged; the repair pass catches what it missed.
 */
export function sendChanges(app: Pick<AppContext, "env" | "ctx">, changes: Change[]): void {
  const queue = app.env.FEED_EVENTS;
  if (!queue || changes.length === 0) return;
  // a sendBatch takes at most 100 messages (an account's removal step sends up to ~55)
  for (let i = 0; i < changes.length; i += 100) {
    app.ctx.waitUntil(
      queue.sendBatch(changes.slice(i, i + 100).map((body) => ({ body }))).catch((error: unknown) => console.warn("change stream: send failed", error)),
    );
  }
}

/**
 * Chains (decision 032): a change whose steps must all run — a post's fan-out past its first
 * followers, an account's removal — has a `stream_chains` row, written with the write that starts
 * it and moved by each step (`updated_at`, and the message of its next step), deleted by its last.
 * A chain whose row has not moved for CHAIN_STALL_MS lost its message (a failed send, a runtime
 * killed before its queue drained): the repair pass runs its next step itself (stalledChains).
 */
export const CHAIN_STALL_MS = 10_000;
/** Chains the repair pass moves on per pass (each one step: a slice, ≤ ~1,000 rows written). */
export const CHAINS_PER_PASS = 5;

/** The statement that starts chain `key` at `change`, if `when` holds (in the write's batch). */
export function startChain(key: string, change: Change, now: number, when: SQL): SQL {
  return sql`INSERT INTO stream_chains (key, change, updated_at) SELECT ${key}, ${JSON.stringify(change)}, ${now} WHERE ${when}
    ON CONFLICT (key) DO UPDATE SET change = excluded.change, updated_at = excluded.updated_at`;
}

/** The oldest chains that have not moved since `now - CHAIN_STALL_MS`: their next steps' messages. */
export async function stalledChains(db: Db, now: number, limit = CHAINS_PER_PASS): Promise<Change[]> {
  const [rows] = await batch(db, [
    select({ change: sql<string>`change` }, sql`FROM stream_chains WHERE updated_at < ${now - CHAIN_STALL_MS} ORDER BY updated_at LIMIT ${limit}`),
  ]);
  return rows.map((r) => JSON.parse(r.change) as Change);
}
