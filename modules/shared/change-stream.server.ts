// The change stream (issue 27, docs/decisions/020-feed-index.md): after a write commits, what it
// changed goes on a Cloudflare Queue (`FEED_EVENTS`), and derived stores — the feed index first —
// are kept from it by its consumer, not inside the write's batch and not by triggers, so they can
// later live in other databases. A message can be lost (a send that fails, a local runtime
// killed before its queue drained) or come twice: consumers are idempotent, and a scheduled
// repair pass finds and fixes drift from the store.
import type { AppContext } from "./context.server";

/** An echo as the stream carries it: what a feed rule looks at. */
export type ChangedEcho = { id: string; authorId: string; tags: string[]; createdAt: number };

export type Change =
  | { type: "post"; echo: ChangedEcho }
  | { type: "delete"; echoIds: string[] }
  /** these echos' like counts changed: the consumer reads them now (so order and repeats do not matter) */
  | { type: "likes"; echoIds: string[] }
  /** these echos' text or tags changed (decision 025): the consumer reads them now and puts each
   * in the indexes it now matches, and only those */
  | { type: "edit"; echoIds: string[] }
  /** build (or go on building) the index of a rule, from `cursor` down */
  | { type: "backfill"; ruleKey: string; cursor: string | null }
  /** the Following timelines (decision 013): the echo joins those of its author's followers after `after` (by id), a slice at a time.
   * With `repost` (decision 027), `echoId` is a repost's id and `authorId` the reposter */
  | { type: "fanout"; echoId: string; authorId: string; after: string; parentId?: string; repost?: true }
  /** the Following timelines: the deleted echo's (or undone repost's) rows leave them, a slice at a time */
  | { type: "unfanout"; echoId: string };

/**
 * Send after the write's answer is on its way (waitUntil): the write's latency and round trips do
 * not change. A failed send is logged; the repair pass catches what it missed.
 */
export function sendChanges(app: Pick<AppContext, "env" | "ctx">, changes: Change[]): void {
  const queue = app.env.FEED_EVENTS;
  if (!queue || changes.length === 0) return;
  app.ctx.waitUntil(
    queue.sendBatch(changes.map((body) => ({ body }))).catch((error: unknown) => console.warn("change stream: send failed", error)),
  );
}
