// What each live socket wants of the echos published on its object's channel (decision 016).
import type { Echo } from "../echo/index";
import type { FeedRule } from "../scroll/index";
import { ruleChecks } from "../scroll/index.server";
import { idTime } from "../shared/index";

/**
 * A socket's filter, kept with it across hibernation (serializeAttachment, 2 KB at most: a feed's
 * rule is stored in the object by scroll id, not here). `every`: all/tag/curation channels, where
 * the channel already is the filter. `feed`: a feed scroll on the "all" channel, whose rule the
 * object evaluates on each new echo. `tag`: a tag page on the "all" channel (the new echos carrying
 * the tag); `curation`: a curation's page on the "all" channel (the echos added to it, published
 * there naming the curation). `following`: a viewer's Following timeline on the "all"
 * channel; the object asks D1 whether the new echo is in that viewer's timeline. `thread`: an
 * echo's page on the "all" channel, which gets the new replies to that echo and, with `rootId`
 * (its conversation's first echo), every new reply in that conversation; `edits`: a page that
 * gets only edits and deletions (search results), by its page's muted-word context. Both also get every edit and deletion, as every socket does.
 */
export type LiveFilter =
  | { kind: "every" }
  | { kind: "feed"; scrollId: string }
  | { kind: "tag"; tag: string }
  | { kind: "curation"; scrollId: string }
  | { kind: "following"; viewerId: string }
  | { kind: "thread"; echoId: string; rootId?: string }
  | { kind: "edits"; page: "search" | "tags" | "feeds" };

/**
 * Whether a new echo belongs in a feed: the engine's own per-echo rules (feed-rules.reference.ts,
 * which the property test holds equal to the SQL engine). Dates compare the id's time, as the
 * engine does. A new echo has no likes, so "hide echos I liked" never leaves it out.
 */
export function feedMatches(rule: FeedRule, echo: Echo, now: number): boolean {
  const facts = { id: echo._id, authorId: echo.author._id, tags: echo.tags.map((t) => t.name), createdAt: idTime(echo._id), likes: echo.likes, parentId: echo.parentId };
  return ruleChecks(rule, facts, false, now).every((check) => check.passed);
}
