import * as v from "valibot";
import { isValidTag, normalizeTag, TAG_RULE_MESSAGE } from "../echo/index";
import { ID_PATTERN } from "../shared/index";

export const LIVE_CHOICE_MESSAGE = "Say what to follow: exactly one of scroll=<id>, tag=<name>, following=1, all=1, echo=<id> or edits=<page>";
/** the pages an edits-only socket serves, by their muted-word context (decision 016) */
export const LIVE_EDIT_PAGES = ["search", "tags", "feeds"] as const;
export const LIVE_UPGRADE_MESSAGE = "GET /api/live upgrades to a WebSocket: send Upgrade: websocket";

/** `GET /api/live` (decision 016): exactly one of the four feeds a client may follow. */
export const LiveQuerySchema = v.pipe(
  v.object({
    scroll: v.optional(v.string()),
    tag: v.optional(v.pipe(v.string(), v.transform(normalizeTag), v.check(isValidTag, TAG_RULE_MESSAGE))),
    /** the viewer's Following timeline (Home's "Following") */
    following: v.optional(v.literal("1", "following must be 1")),
    all: v.optional(v.literal("1", "all must be 1")),
    /** an echo's page: its new replies, and the edits and deletions of what the page shows */
    echo: v.optional(v.pipe(v.string(), v.regex(ID_PATTERN, "echo must be an echo id"))),
    /** a page with no channel of its own for what it shows (search results, a curation's or a tag page's quotes): edits and deletions only */
    edits: v.optional(v.picklist(LIVE_EDIT_PAGES, `edits must be one of ${LIVE_EDIT_PAGES.join(", ")}`)),
  }),
  v.check((q) => [q.scroll, q.tag, q.following, q.all, q.echo, q.edits].filter((x) => x !== undefined).length === 1, LIVE_CHOICE_MESSAGE),
);
export type LiveQuery = v.InferOutput<typeof LiveQuerySchema>;
