// An edits-only follower (decision 016) for pages whose echos no feed channel names: search
// results (`edits=search`) and an echo's page (`echo=<id>`, which also brings the new replies in
// its conversation). Edits and deletions patch every copy on the page through echo-store.ts; a
// reopened socket catches up through the page's own read (`catchUp`). Loaded after hydration
// (live-edits-lazy.ts): no page's first load pays for it.
import { useEffect, useRef, useState } from "react";
import type { Echo } from "../schema";
import { markDeleted, markEdited } from "./echo-store";
// through the pill's module, whose chunk carries the socket code: one lazy chunk fewer named in
// home's first load (its 128,000-byte budget has no byte to spare)
import { followLive, type LiveState } from "./live-pill";

export type LiveEditsProps = {
  /** the /api/live query: `edits=search` or `echo=<id>` */
  query: string;
  /** on an echo's page: a new reply in its conversation */
  onEcho?: (echo: Echo) => void;
  /** a deletion, after the store took it: with the parent a reply had (a thread counts it out) */
  onGone?: (id: string, parentId?: string) => void;
  /** what a reopened socket reads to catch up, and what the page makes of it (live-socket.ts) */
  catchUp?: { path: string; apply?: (body: unknown) => void };
};

/** The page's catch-up as it is when the read is made: a new search keeps the socket, not its old path. */
function caughtUp(now: () => LiveEditsProps["catchUp"], applies: boolean): NonNullable<LiveEditsProps["catchUp"]> {
  const apply = (body: unknown) => now()?.apply?.(body);
  return { get path() { return now()?.path ?? ""; }, ...(applies ? { apply } : {}) };
}

export function LiveEdits({ query, onEcho, onGone, catchUp }: LiveEditsProps) {
  // the page's latest callbacks (they close over its state); the socket stays
  const latest = useRef({ onEcho, onGone, catchUp });
  latest.current = { onEcho, onGone, catchUp };
  const [reads, applies] = [!!catchUp, !!catchUp?.apply];
  const [state, setState] = useState<LiveState>("connecting");
  useEffect(
    () =>
      followLive({
        query,
        onEcho: (echo) => latest.current.onEcho?.(echo),
        has: () => false,
        onEdit: markEdited,
        onGone: (id, parentId) => {
          markDeleted(id);
          latest.current.onGone?.(id, parentId);
        },
        onState: setState,
        ...(reads ? { catchUp: caughtUp(() => latest.current.catchUp, applies) } : {}),
      }),
    [query, reads, applies],
  );
  // nothing to see: how the page is followed, as the pill says it (data-state), for tests and debugging
  return <span hidden data-testid="live-edits" data-state={state} />;
}
