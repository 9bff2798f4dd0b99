// An edits-only follower (decision 016) for pages whose echos no feed channel names: search
// results (`edits=search`) and an echo's page (`echo=<id>`, which also brings the new replies to
// that echo). Edits and deletions patch every copy on the page through echo-store.ts. Loaded
// after hydration (live-edits-lazy.ts): no page's first load pays for it.
import { useEffect, useRef, useState } from "react";
import type { Echo } from "../schema";
import { markDeleted, markEdited } from "./echo-store";
import { followLive, type LiveState } from "./live-socket";

export type LiveEditsProps = {
  /** the /api/live query: `edits=search` or `echo=<id>` */
  query: string;
  /** on an echo's page: a new reply to it */
  onEcho?: (echo: Echo) => void;
};

export function LiveEdits({ query, onEcho }: LiveEditsProps) {
  const latest = useRef(onEcho);
  latest.current = onEcho;
  const [state, setState] = useState<LiveState>("connecting");
  useEffect(
    () => followLive({ query, onEcho: (echo) => latest.current?.(echo), has: () => false, onEdit: markEdited, onGone: markDeleted, onState: setState }),
    [query],
  );
  // nothing to see: how the page is followed, as the pill says it (data-state), for tests and debugging
  return <span hidden data-testid="live-edits" data-state={state} />;
}
