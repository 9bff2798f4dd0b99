import { useRef, useState } from "react";
import { useNavigate } from "react-router";
import { api, followInAppLink, LazyLoadMore, usePagedList } from "../../shared/index";
import { EmptyState } from "../../shell/index";
import { THREAD_NESTED, type Echo, type Thread, type ThreadItem } from "../schema";
import { EchoCard } from "./echo-card";
import { EchoHistory } from "./echo-history";
import { EchoReposts } from "./echo-reposts";
import { markDeleted, markEdited, useEchoStore } from "./echo-store";
import { LiveEdits } from "./live-edits-lazy";
import { ReplyForm } from "./reply-form";
import { threadChanges } from "./thread-live";

type Reply = Thread["replies"][number];

/** Where an echo of the thread was deleted: its place stays, so the conversation reads on. */
function DeletedEcho() {
  return (
    <article className="echo-card echo-deleted" data-testid="echo-deleted">
      <p>This echo was deleted</p>
    </article>
  );
}

/** An echo whose author the viewer blocked, is blocked by, or muted: its place only. */
function HiddenEcho() {
  return (
    <article className="echo-card echo-deleted" data-testid="echo-hidden">
      <p>Hidden: from an account you blocked or muted, or that blocked you</p>
    </article>
  );
}

/** `count`: its replies now (the read's, with those that came or went since). */
function Item({ item, viewerId, count }: { item: ThreadItem; viewerId: string; count?: (echo: Echo) => number }) {
  // deleted while the page is open (live, decision 016): its place stays, as on a reload
  const store = useEchoStore();
  if (item.hidden) return <HiddenEcho />;
  return item.echo && !store.isDeleted(item.echo) ? <EchoCard echo={{ ...item.echo, commentsCount: count?.(item.echo) ?? item.echo.commentsCount }} viewerId={viewerId} /> : <DeletedEcho />;
}

/** The counts of a read made after the page's (a socket's catch-up), and the replies they take in. */
type Reread = { counts: Map<string, number>; settled: Set<string> };

const asItem = (echo: Echo): ThreadItem => ({ _id: echo._id, parentId: echo.parentId, echo });

/**
 * /echo/{id} (spec §2, decision 024): back button, the chain above the echo, the echo in full
 * (or where it was deleted), the reply box, and its replies — each with its first replies and a
 * link to the rest — paged by "Load more replies"; or the not-found state.
 */
export function EchoDetail({ thread, viewerId }: { thread: Thread | null; viewerId: string }) {
  const navigate = useNavigate();
  const store = useEchoStore();
  // replies posted here or arriving live anywhere in the shown thread, newest first; the echo's
  // own show above the server's (which are oldest first), a reply's under it
  const [posted, setPosted] = useState<Echo[]>([]);
  const addReply = (reply: Echo) => setPosted((list) => (list.some((p) => p._id === reply._id) ? list : [reply, ...list]));
  // replies deleted while the page is open, by the parent the deletion named: it counts them out
  // even where the page never showed them (deeper than its levels, another branch)
  const [goneUnder, setGoneUnder] = useState<ReadonlyMap<string, string>>(new Map());
  const gone = (id: string, parentId?: string | null) => parentId && setGoneUnder((m) => new Map(m).set(id, parentId));
  const [reread, setReread] = useState<Reread>({ counts: new Map(), settled: new Set() });
  const rows = useRef<HTMLOListElement>(null);
  const list = usePagedList<Reply>({
    first: { items: thread?.replies ?? [], at: thread?.pagination ?? { hasMore: false } },
    load: async (at) => {
      const page = await api<Thread>(`/echo/${thread?.echo._id}/thread?cursor=${encodeURIComponent(at?.nextCursor ?? "")}`, { fallback: "Failed to load replies" });
      return { items: page.replies, at: page.pagination };
    },
    key: (r) => r._id,
  });
  // Back within the app only: React Router's history index is 0 on the tab's first screen (a
  // shared link opened directly), where going back would leave the app for a blank tab or another site.
  const goBack = () => ((window.history.state as { idx?: number } | null)?.idx ? navigate(-1) : navigate("/"));
  const echo = thread?.echo.echo ?? null;
  if (!thread) {
    return (
      <div className="page">
        <EmptyState heading title="Echo not found" detail="This echo may have been deleted or doesn't exist.">
          <button type="button" className="btn btn-primary" onClick={goBack}>
            Go back
          </button>
        </EmptyState>
      </div>
    );
  }
  const replies = list.items;
  const threadId = thread.echo._id;
  const shown = new Set(replies.map((r) => r._id));
  const mine = posted.filter((p) => p.parentId === threadId && !shown.has(p._id));
  // deleted while the page is open (its author elsewhere, or live): the thread reads on around it
  const echoGone = !!echo && store.isDeleted(echo);
  // every reply the page knows, by parent: the server's (live ones), those posted here or live
  const children = new Map<string, Map<string, string>>();
  const know = (e: Echo) => e.parentId && (children.get(e.parentId) ?? children.set(e.parentId, new Map()).get(e.parentId)!).set(e._id, e.author._id);
  for (const p of posted) know(p);
  for (const r of replies) for (const n of [r, ...r.replies]) if (n.echo) know(n.echo);
  // an echo's count: the server's (or a later read's), plus the replies that came since, less
  // those deleted since (one by one — shown or not — or with their account); what a later read
  // already counted is settled
  const deletedUnder = (id: string) => {
    const out = new Set([...(children.get(id) ?? [])].filter(([c, by]) => store.isDeleted({ _id: c, author: { _id: by } })).map(([c]) => c));
    for (const [c, parent] of goneUnder) if (parent === id) out.add(c);
    return [...out];
  };
  const fresh = (c: string) => !reread.settled.has(c);
  const count = (e: Echo) =>
    (reread.counts.get(e._id) ?? e.commentsCount) + posted.filter((p) => p.parentId === e._id && fresh(p._id)).length - deletedUnder(e._id).filter(fresh).length;
  // a live reply takes its place only under an echo the page shows (the socket brings the whole
  // conversation's); a reply to an ancestor or to a nested reply changes that card's count
  const served = new Set(replies.flatMap((r) => [r._id, ...r.replies.map((n) => n._id)]));
  const places = new Set([threadId, ...thread.ancestors.map((a) => a._id), ...served, ...posted.map((p) => p._id)]);
  const onReply = (reply: Echo) => reply.parentId && places.has(reply.parentId) && !served.has(reply._id) && addReply(reply);
  /**
   * A socket that reopened (a laptop that slept) rereads the thread (issue 31): the edits and
   * deletions it missed, the new replies under echos shown, and every shown echo's count as the
   * read says (a reply past the first page or deeper than the levels shown), on which the
   * changes that come after the read are counted again.
   */
  const catchUp = (body: unknown) => {
    const items = [...thread.ancestors, thread.echo, ...replies.flatMap((r) => [r, ...r.replies]), ...posted.map(asItem)];
    const loaded = new Set(items.flatMap((i) => (i.echo && !store.isDeleted(i.echo) ? [i._id] : [])));
    const under = (parentId: string) => [...(children.get(parentId)?.keys() ?? [])].filter((id) => loaded.has(id));
    const changes = threadChanges(body as Thread, (id) => loaded.has(id), under);
    for (const edit of changes.edits) markEdited(edit);
    for (const { id, parentId } of changes.gone) {
      markDeleted(id);
      gone(id, parentId);
    }
    for (const reply of changes.replies) onReply(reply);
    // every reply under a reread echo is in its new count, those the read brought too
    const came = [...posted, ...changes.replies].flatMap((p) => (p.parentId && changes.counts.has(p.parentId) ? [p._id] : []));
    const deleted = [...changes.counts.keys()].flatMap(deletedUnder);
    const newlyGone = changes.gone.flatMap((g) => (g.parentId && changes.counts.has(g.parentId) ? [g.id] : []));
    setReread((r) => ({ counts: new Map([...r.counts, ...changes.counts]), settled: new Set([...r.settled, ...came, ...deleted, ...newlyGone]) }));
  };

  const author = echo?.author.userName;
  // an edit made on this page shows its history at once (echo-store.ts)
  const editedAt = echo ? store.editOf(echo).editedAt : undefined;
  return (
    // the thread's own links (earlier, more replies) go client-side, as a card's do
    <div className="page" onClick={(e) => followInAppLink(e, navigate)}>
      <button type="button" className="btn back-btn" onClick={goBack}>
        ← Back
      </button>
      <h1 className="visually-hidden">{author && !echoGone ? `Echo by ${author}` : "Deleted echo"}</h1>
      <LiveEdits query={`echo=${threadId}`} onEcho={onReply} onGone={gone} catchUp={{ path: `/api/echo/${threadId}/thread`, apply: catchUp }} />
      {thread.earlierId && (
        <a href={`/echo/${thread.earlierId}`} className="thread-more">
          Earlier in this conversation
        </a>
      )}
      {thread.ancestors.length > 0 && (
        <ol className="thread-list thread-ancestors" aria-label="Earlier in this conversation">
          {thread.ancestors.map((a) => (
            <li key={a._id}>
              <Item item={a} viewerId={viewerId} count={count} />
            </li>
          ))}
        </ol>
      )}
      {echo && !echoGone ? (
        <>
          <EchoCard echo={{ ...echo, commentsCount: count(echo) }} viewerId={viewerId} detail onDeleted={() => navigate("/")} />
          {/* here, not in the card: the echo page's code, not home's (decision 025) */}
          {editedAt && <EchoHistory echoId={echo._id} editedAt={editedAt} />}
          <EchoReposts echo={echo} viewerId={viewerId} />
        </>
      ) : (
        <Item item={thread.echo} viewerId={viewerId} />
      )}
      {echo && !echoGone && <ReplyForm parent={echo} onPosted={addReply} />}
      <section className="thread-replies" aria-labelledby="replies-heading">
        <h2 id="replies-heading">Replies</h2>
        {replies.length === 0 && mine.length === 0 ? (
          <p className="feed-end">No replies yet</p>
        ) : (
          <ol className="thread-list" ref={rows}>
            {mine.map((reply) => (
              <li key={reply._id}>
                <Item item={asItem(reply)} viewerId={viewerId} count={count} />
              </li>
            ))}
            {replies.map((reply) => {
              // its live replies after the server's, as a reload would show them: while they fit
              // the first THREAD_NESTED, else behind "More replies"
              const fresh = posted.filter((p) => p.parentId === reply._id && !reply.replies.some((n) => n._id === p._id)).reverse();
              const fits = !reply.moreReplies && reply.replies.length + fresh.length <= THREAD_NESTED;
              const nested = fits ? [...reply.replies, ...fresh.map(asItem)] : reply.replies;
              return (
                <li key={reply._id}>
                  <Item item={reply} viewerId={viewerId} count={count} />
                  {nested.length > 0 && (
                    <ol className="thread-list thread-nested" aria-label="Replies to this reply">
                      {nested.map((n) => (
                        <li key={n._id}>
                          <Item item={n} viewerId={viewerId} count={count} />
                        </li>
                      ))}
                    </ol>
                  )}
                  {!fits && (
                    <a href={`/echo/${reply._id}`} className="thread-more" aria-label={`More replies to ${reply.echo ? `@${reply.echo.author.userName}` : "the deleted echo"}`}>
                      More replies
                    </a>
                  )}
                </li>
              );
            })}
          </ol>
        )}
        {/* lazily, as the feed does: a static import here made the bundler add a namespace helper to home's first load */}
        <LazyLoadMore list={list} label="Load more replies" rows={rows} />
      </section>
    </div>
  );
}
