import * as v from "valibot";
import { isValidTag, normalizeTag, TAG_RULE_MESSAGE } from "../echo/index";

export const LIVE_CHOICE_MESSAGE = "Say what to follow: exactly one of scroll=<id>, tag=<name>, following=1 or all=1";
export const LIVE_UPGRADE_MESSAGE = "GET /api/live upgrades to a WebSocket: send Upgrade: websocket";

/** `GET /api/live` (decision 016): exactly one of the four feeds a client may follow. */
export const LiveQuerySchema = v.pipe(
  v.object({
    scroll: v.optional(v.string()),
    tag: v.optional(v.pipe(v.string(), v.transform(normalizeTag), v.check(isValidTag, TAG_RULE_MESSAGE))),
    /** the viewer's Following timeline (Home's "Following") */
    following: v.optional(v.literal("1", "following must be 1")),
    all: v.optional(v.literal("1", "all must be 1")),
  }),
  v.check((q) => [q.scroll, q.tag, q.following, q.all].filter((x) => x !== undefined).length === 1, LIVE_CHOICE_MESSAGE),
);
export type LiveQuery = v.InferOutput<typeof LiveQuerySchema>;
