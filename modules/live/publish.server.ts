// What a live object does with a publish (decision 016): which of its sockets get a new echo, an
// edit, a repost or a deletion, each judged per reader (hidden authors, moderation, muted words)
// in one D1 batch for all of them. The object (hub.server.ts) hands over its sockets and rules.
import { repostReaders, timelineOwners } from "../echo/index.server";
import type { FeedRule } from "../scroll/index";
import { createDb, liveVerdicts, verdictKey, type LivePage } from "../shared/index.server";
import type { Attachment } from "./access.server";
import { feedMatches, type LiveFilter } from "./filter";

type Echo = Parameters<typeof feedMatches>[1];

/** What a publish needs of its object: the sockets it holds, D1, and the feed rules it keeps. */
export type PublishHost = { sockets: () => WebSocket[]; env: Env; ruleOf: (scrollId: string) => Promise<FeedRule | undefined> };

/**
 * A publish's body. `{ "type": "echo", "echo": … }` is sent as it came (a reply's `rootId`, its
 * conversation, stays here: it only picks the thread pages); a repost's echo carries `repost` and
 * goes to Following pages only; one naming `scrollId` is an add to that curation and goes to its
 * pages only (the id stays here too); `{ "type": "edit", … }` goes to every page here (a page patches
 * the copies it holds) whose reader would see the echo there; `{ "type": "delete" }` to every
 * page, naming an echo (and a reply's parent, whose count a thread lowers) or, when an account is
 * deleted, its author (every copy of theirs goes).
 */
type Message = { type: string; echo?: Echo & { repost?: { _id: string; by: { _id: string } } }; author?: { _id: string }; rootId?: string; scrollId?: string };

export async function publish(host: PublishHost, body: string, visibleTo: string | null): Promise<void> {
  const { type, echo, author, rootId, scrollId } = JSON.parse(body) as Message;
  if (type === "delete") {
    // ids only, nothing to hide from anyone: every page drops its copies
    const parentId = echo?.parentId;
    const message = JSON.stringify(author ? { type, author: { _id: author._id } } : { type, echo: { _id: echo?._id, ...(parentId ? { parentId } : {}) } });
    for (const [ws] of liveSockets(host)) send(ws, message);
    return;
  }
  if (!echo) return;
  if (type === "edit") return publishEdit(host, echo);
  if (echo.repost) return publishRepost(host, { id: echo.repost._id, reposterId: echo.repost.by._id, echoId: echo._id, authorId: echo.author._id }, body);
  const now = Date.now();
  // a feed's rule is evaluated once per publish, however many of its pages are open
  const verdicts = new Map<string, boolean>();
  /** Following pages wait for one D1 read after every other socket was served */
  const following: [WebSocket, string][] = [];
  /** every other page: sent once what their viewers hide is known, with the page it shows */
  const others: [WebSocket, string, LivePage][] = [];
  for (const [ws, holder] of liveSockets(host, now)) {
    if (visibleTo !== null && holder.viewerId !== visibleTo) continue;
    const { filter } = holder;
    // a curation's add goes to its pages only, and they take nothing else; an edits-only page
    // shows no new echos; a tag page those carrying its tag; an echo's page the replies in its thread
    if ((filter.kind === "curation") !== (scrollId !== undefined) || (filter.kind === "curation" && filter.scrollId !== scrollId)) continue;
    if (filter.kind === "edits" || (filter.kind === "thread" && !inThread(filter, echo, rootId))) continue;
    if (filter.kind === "tag" && !echo.tags.some((t) => t.name === filter.tag)) continue;
    if (filter.kind === "following") {
      following.push([ws, filter.viewerId]);
      continue;
    }
    if (filter.kind === "feed") {
      let verdict = verdicts.get(filter.scrollId);
      if (verdict === undefined) {
        const rule = await host.ruleOf(filter.scrollId);
        verdict = rule ? feedMatches(rule, echo, now) : false;
        verdicts.set(filter.scrollId, verdict);
      }
      if (!verdict) continue;
    }
    others.push([ws, holder.viewerId, livePage(filter)]);
  }
  if (others.length > 0) await publishVisible(host, echo, others);
  if (following.length > 0) await publishFollowing(host, echo, following);
}

/**
 * Whether a new echo belongs on an echo's page: a reply to that echo, or any reply in its
 * conversation (the page places one whose parent it shows — a reply, a reply's reply, an
 * ancestor — and counts it; the rest it ignores: the object does not know what the page shows).
 */
function inThread(filter: Extract<LiveFilter, { kind: "thread" }>, echo: Echo, rootId: string | undefined): boolean {
  return echo.parentId === filter.echoId || (filter.rootId !== undefined && rootId === filter.rootId);
}

/**
 * Sends the echo to the sockets whose viewer sees it on that page (issue 32): not to one who
 * hides its author (a block either way, a mute) or whom moderation keeps it from (a limited
 * account's echo leaves public pages), nor one whose hide word it matches in the page's
 * context; a warn word sends it with `mutedWord`, as the lists do. One D1 batch for all of them;
 * when it fails nobody gets the echo (they see it on their next load), rather than one who must not.
 * An edit follows the same verdicts, but a page may already hold the echo: where a hide word of
 * the reader's now matches it the page gets `{ "type": "hide" }` (it drops its copies, as its list
 * would on a reload); a shown one without `mutedWord` lifts an earlier warning (the client patches it).
 */
async function publishVisible(host: PublishHost, echo: Echo, sockets: [WebSocket, string, LivePage][], type: "echo" | "edit" = "echo"): Promise<void> {
  let seen: Awaited<ReturnType<typeof liveVerdicts>>;
  try {
    seen = await liveVerdicts(createDb(host.env.DB), echo._id, sockets.map(([, viewerId, page]) => ({ viewerId, page })));
  } catch (error) {
    console.warn("live: visibility check failed", error);
    return;
  }
  const messages = new Map<string | null, string>();
  const wire = (warn: string | null) => {
    let m = messages.get(warn);
    if (m === undefined) messages.set(warn, (m = JSON.stringify({ type, echo: warn === null ? echo : { ...echo, mutedWord: warn } })));
    return m;
  };
  const hide = JSON.stringify({ type: "hide", echo: { _id: echo._id } });
  for (const [ws, viewerId, page] of sockets) {
    const verdict = seen.get(verdictKey(viewerId, page));
    if (verdict?.shown) send(ws, wire(verdict.warn));
    // hidden by the reader's words: the page may hold the version before the edit (a blocked
    // or muted author's echo it never held: nothing to say)
    else if (verdict?.author && type === "edit") send(ws, hide);
  }
}

/**
 * Following pages: the echo goes to the readers whose timeline holds it or will (its author's
 * followers: the change stream writes the rows past the post's batch's first slice). One query for all of this object's Following readers, each a
 * primary-key probe; the author's follower count does not enter (decision 016). Then the
 * same test as every other page (Home's words; a limited account stays in its followers'
 * Following, a personal list).
 */
async function publishFollowing(host: PublishHost, echo: Echo, sockets: [WebSocket, string][]): Promise<void> {
  let owners: Set<string>;
  try {
    owners = await timelineOwners(createDb(host.env.DB), { id: echo._id, authorId: echo.author._id }, [...new Set(sockets.map(([, viewerId]) => viewerId))]);
  } catch (error) {
    // D1 unreachable: these readers see the echo on their next load, as when a publish fails
    console.warn("live: following check failed", error);
    return;
  }
  const kept = sockets.filter(([, viewerId]) => owners.has(viewerId));
  if (kept.length > 0) await publishVisible(host, echo, kept.map(([ws, viewerId]) => [ws, viewerId, FOLLOWING_PAGE]));
}

/** The open sockets whose session has not ended, with their viewer and filter. */
function liveSockets(host: PublishHost, now = Date.now()): [WebSocket, Attachment][] {
  return host.sockets().flatMap((ws) => {
    const holder = ws.deserializeAttachment() as Attachment | null;
    // a session past its end gets nothing (the alarm closes it)
    return holder?.filter && holder.expiresAt > now ? [[ws, holder] as [WebSocket, Attachment]] : [];
  });
}

/**
 * An edit: every page here may hold a copy of the echo; each reader who would see it on that
 * page gets the patch (the same test as a new echo's: hidden authors, moderation, the page's
 * hide words; a warn word sends it with `mutedWord`), and one who no longer would a `hide`.
 */
async function publishEdit(host: PublishHost, echo: Echo): Promise<void> {
  const sockets = liveSockets(host).map(([ws, holder]): [WebSocket, string, LivePage] => [ws, holder.viewerId, livePage(holder.filter)]);
  if (sockets.length > 0) await publishVisible(host, echo, sockets, "edit");
}

/**
 * A repost (decision 027): to the Following pages whose timeline holds it or will, whose reader
 * sees both the echo's author and the reposter; each with the reader's own like and repost
 * state of the echo, and Home's muted words as the Following list applies them to the echo (a
 * hide word: not sent; a warn word: sent with `mutedWord`). Two D1 reads for all of them
 * (repostReaders, then the verdicts); when either fails nobody gets it.
 */
async function publishRepost(host: PublishHost, repost: { id: string; reposterId: string; echoId: string; authorId: string }, message: string): Promise<void> {
  const sockets = liveSockets(host).flatMap(([ws, holder]): [WebSocket, string][] => (holder.filter.kind === "following" ? [[ws, holder.viewerId]] : []));
  if (sockets.length === 0) return;
  let readers: Awaited<ReturnType<typeof repostReaders>>;
  let seen: Awaited<ReturnType<typeof liveVerdicts>>;
  try {
    const db = createDb(host.env.DB);
    readers = await repostReaders(db, repost, [...new Set(sockets.map(([, viewerId]) => viewerId))]);
    seen = readers.size === 0 ? new Map() : await liveVerdicts(db, repost.echoId, [...readers.keys()].map((viewerId) => ({ viewerId, page: FOLLOWING_PAGE })));
  } catch (error) {
    console.warn("live: repost check failed", error);
    return;
  }
  const parsed = JSON.parse(message) as { type: string; echo: Record<string, unknown> };
  for (const [ws, viewerId] of sockets) {
    const state = readers.get(viewerId);
    const verdict = seen.get(verdictKey(viewerId, FOLLOWING_PAGE));
    if (!state || !verdict?.shown) continue;
    send(ws, JSON.stringify({ type: parsed.type, echo: { ...parsed.echo, ...state, ...(verdict.warn === null ? {} : { mutedWord: verdict.warn }) } }));
  }
}

/** Home's Following: Home's words; a limited account stays in its followers' Following, a personal list. */
const FOLLOWING_PAGE: LivePage = { context: "home", scope: "personal" };

/**
 * The page a socket shows, for its muted words and moderation: All (Home), a tag page (Tags), a
 * curation or a feed (Feeds), all of them public lists; Following (Home, personal); an echo's
 * page (no words, personal: as the thread reads); an edits-only page by the context it names.
 */
function livePage(filter: LiveFilter): LivePage {
  if (filter.kind === "following") return FOLLOWING_PAGE;
  if (filter.kind === "thread") return { context: null, scope: "personal" };
  if (filter.kind === "edits") return { context: filter.page, scope: "public" };
  if (filter.kind === "feed" || filter.kind === "curation") return { context: "feeds", scope: "public" };
  if (filter.kind === "tag") return { context: "tags", scope: "public" };
  return { context: "home", scope: "public" };
}

function send(ws: WebSocket, message: string): void {
  try {
    ws.send(message);
  } catch {
    // a socket closing meanwhile: its close handler tidies up
  }
}
