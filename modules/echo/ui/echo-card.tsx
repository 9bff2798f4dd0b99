import { memo, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { followInAppLink, lazyComponent, relativeTime, toast } from "../../shared/index";
import type { Echo } from "../schema";
import { toggleLike } from "./echo-actions";

/** Share, copy, delete: loaded on first use (echo-more-actions.ts), not with home's first page. */
type MoreActions = typeof import("./echo-more-actions");
const failed = () => toast.error("Could not load that action: check your connection");
const more = (use: (actions: MoreActions) => unknown) => void import("./echo-more-actions").then(use, failed);
import { markEdited, useEchoStore } from "./echo-store";
import { useEchoExtensions } from "./echo-extensions";
import { EchoMenu, type EchoMenuHandle, type MenuItem } from "./echo-menu";
import { EchoText } from "./echo-text";

// opened from the menu only: its code loads then
const ReportDialog = lazyComponent(() => import("./report-dialog").then((m) => m.ReportDialog), failed);
const EditDialog = lazyComponent(() => import("./edit-dialog").then((m) => m.EditDialog), failed);
const QuoteDialog = lazyComponent(() => import("./quote-dialog").then((m) => m.QuoteDialog), failed);
import { QuotedEcho } from "./quoted-echo";

type Props = {
  echo: Echo;
  viewerId: string;
  /** the detail page shows the full date and no link on the body */
  detail?: boolean;
  onDeleted?: (id: string) => void;
};

/** One echo: author, time, text (never HTML), tags, like, share and the menu (spec §2). */
export const EchoCard = memo(function EchoCard({ echo: given, viewerId, detail, onDeleted }: Props) {
  const store = useEchoStore();
  // the author's edit on this page shows on every copy (echo-store.ts)
  const echo = store.editOf(given);
  const [editing, setEditing] = useState(false);
  // a content warning hides text and tags until the reader opens them (decision 025)
  const [opened, setOpened] = useState(false);
  // a muted word set to "warn" (decision 028) collapses the echo to its phrase until opened
  const [unmuted, setUnmuted] = useState(false);
  const extensions = useEchoExtensions();
  const [saving, setSaving] = useState(false);
  const [removed, setRemoved] = useState(false);
  const navigate = useNavigate();
  const [reporting, setReporting] = useState(false);
  const [explaining, setExplaining] = useState(false);
  const menu = useRef<EchoMenuHandle>(null);
  const like = store.likeOf(echo._id) ?? { likes: echo.likes, isLiked: echo.isLiked };
  // reposts and quotes (decision 027): this copy follows the server's answer
  const [repost, setRepost] = useState<{ reposts: number; isReposted: boolean } | null>(null);
  const reposts = repost ?? { reposts: echo.reposts, isReposted: echo.isReposted };
  const [quoting, setQuoting] = useState(false);
  const quoteButton = useRef<HTMLButtonElement>(null);
  const [quotes, setQuotes] = useState(echo.quotes);

  const isAuthor = echo.author._id === viewerId;
  if ((store.isDeleted(echo) && !detail) || removed) return null;
  const removeFromScroll = extensions.removeFromScroll;
  const marks = extensions.marks;
  const run = marks && ((text: string, from: number) => marks.text(echo, text, from));

  // optimistic and queued (echo-actions.ts): the button stays enabled so keyboard focus stays on
  // it, and a click while the previous one is on its way counts too
  const onLike = () => void toggleLike(echo._id, like);

  const onRepost = () => more(async (a) => setRepost((await a.setRepost(echo._id, !reposts.isReposted)) ?? reposts));

  const onDelete = () => more(async (a) => (await a.deleteEcho(echo._id)) && onDeleted?.(echo._id));

  // a dialog opened from the menu gives focus back to the menu button when it closes
  const closeDialog = (close: () => void) => () => {
    close();
    menu.current?.focusButton();
  };
  const menuItems: MenuItem[] = [
    { label: "Copy Link", onSelect: () => more((a) => a.copyLink(echo._id)) },
    ...(extensions.explain ? [{ label: extensions.explain.label, onSelect: () => setExplaining(true) }] : []),
    ...(extensions.saveToScroll ? [{ label: "Save to Scroll", onSelect: () => setSaving(true) }] : []),
    ...(removeFromScroll
      ? [{ label: "Remove from Scroll", onSelect: async () => (await removeFromScroll(echo)) && setRemoved(true) }]
      : []),
    ...(isAuthor ? [{ label: "Edit Echo", onSelect: () => setEditing(true) }] : []),
    isAuthor
      ? { label: "Delete Echo", onSelect: onDelete, danger: true }
      : { label: "Report", onSelect: () => setReporting(true) },
  ];

  return (
    // the card's links are plain <a>s that this one handler makes client-side (followInAppLink)
    <article
      className={detail ? "echo-card echo-detail" : "echo-card"}
      data-testid="echo-card"
      data-echo-id={echo._id}
      onClick={(e) => followInAppLink(e, navigate)}
    >
      {echo.repost && (
        <p className="echo-reposted">
          <span aria-hidden="true">↻</span>{" "}
          <a href={`/user/${echo.repost.by._id}`}>
            @<bdi>{echo.repost.by.userName}</bdi>
          </a>{" "}
          reposted
        </p>
      )}
      <header className="echo-head">
        <a href={`/user/${echo.author._id}`} className="echo-author">
          @<bdi>{echo.author.userName}</bdi>
        </a>
        {/* "now" → "1m" can tick between the server's render and hydration (more so under load): the
            server's text stays until the next render instead of failing hydration */}
        <time dateTime={echo.createdAt} title={new Date(echo.createdAt).toUTCString()} className="echo-time" suppressHydrationWarning>
          {detail ? new Date(echo.createdAt).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC" : relativeTime(echo.createdAt)}
        </time>
        {echo.editedAt && (
          <time dateTime={echo.editedAt} className="echo-time" suppressHydrationWarning>
            · edited {relativeTime(echo.editedAt)}
          </time>
        )}
        {/* named by whose echo it is: a list of cards is not a list of identical "Echo menu"s (issue 29) */}
        <EchoMenu
          ref={menu}
          items={menuItems}
          label={`Echo menu, by @${echo.author.userName}`}
          onOpen={() => (isAuthor ? EditDialog : ReportDialog).preload()}
        />
      </header>
      {echo.parentId && !detail && (
        <a href={`/echo/${echo.parentId}`} className="echo-reply-to">
          Replying to an echo
        </a>
      )}
      {echo.mutedWord && (
        <p className="echo-warning" dir="auto">
          <span>
            Hidden: matches <bdi>{echo.mutedWord}</bdi>
          </span>
          <button type="button" className="btn cw-toggle" aria-expanded={unmuted} aria-controls={`mw-${echo._id}`} onClick={() => setUnmuted(!unmuted)}>
            {unmuted ? "Hide echo" : "Show echo"}
          </button>
        </p>
      )}
      <div id={`mw-${echo._id}`} hidden={!!echo.mutedWord && !unmuted}>
      {echo.warning && (
        <p className="echo-warning" dir="auto">
          {/* the row's flex gap spaces the label from its button */}
          <span>
            Content warning: <bdi>{echo.warning}</bdi>
          </span>
          <button type="button" className="btn cw-toggle" aria-expanded={opened} aria-controls={`cw-${echo._id}`} onClick={() => setOpened(!opened)}>
            {opened ? "Hide text" : "Show text"}
          </button>
        </p>
      )}
      <div id={`cw-${echo._id}`} hidden={!!echo.warning && !opened}>
      {detail ? (
        <p className="echo-content" dir="auto">
          <EchoText content={echo.content} run={run} />
        </p>
      ) : (
        <p
          className="echo-content clickable"
          dir="auto"
          onClick={(e) => {
            // a link in the text (EchoText) goes where it points (the card's handler), not to the echo
            const onLink = e.target instanceof Element && e.target.closest("a");
            if (!onLink && !window.getSelection()?.toString()) void navigate(`/echo/${echo._id}`);
          }}
        >
          <EchoText content={echo.content} run={run} />
        </p>
      )}
      {echo.tags.length > 0 && (
        <ul className="echo-tags">
          {echo.tags.map((tag) => (
            <li key={tag._id}>
              <a href={`/tag/${encodeURIComponent(tag.name)}`} className="tag-chip">
                #{marks ? marks.tag(echo, tag.name) : <bdi>{tag.name}</bdi>}
              </a>
            </li>
          ))}
        </ul>
      )}
      {echo.quoted && <QuotedEcho quoted={echo.quoted} quoteId={echo._id} />}
      </div>
      </div>
      <footer className="echo-actions">
        <button
          type="button"
          className={like.isLiked ? "action liked" : "action"}
          aria-pressed={like.isLiked}
          // the count is part of the name (issue 29): "Like, 3 likes"
          aria-label={`${like.isLiked ? "Unlike" : "Like"}, ${like.likes} like${like.likes === 1 ? "" : "s"}`}
          onClick={onLike}
        >
          <span aria-hidden="true">{like.isLiked ? "♥" : "♡"}</span> <span className="like-count">{like.likes}</span>
        </button>
        {/* the echo's page holds the reply box (#reply focuses it) and the replies (decision 024) */}
        <a href={`/echo/${echo._id}#reply`} className="action" aria-label={`Reply, ${echo.commentsCount} repl${echo.commentsCount === 1 ? "y" : "ies"}`}>
          <span aria-hidden="true">↩</span> {echo.commentsCount}
        </a>
        <button
          type="button"
          className={reposts.isReposted ? "action reposted" : "action"}
          aria-pressed={reposts.isReposted}
          aria-label={`${reposts.isReposted ? "Undo repost" : "Repost"}, ${reposts.reposts} repost${reposts.reposts === 1 ? "" : "s"}`}
          onClick={onRepost}
        >
          <span aria-hidden="true">↻</span> {reposts.reposts}
        </button>
        {/* opens the quote dialog; the quotes themselves are listed on the echo's page (#quotes) */}
        <button ref={quoteButton} type="button" className="action" aria-label={`Quote, ${quotes} quote${quotes === 1 ? "" : "s"}`} aria-haspopup="dialog" onClick={() => setQuoting(true)}>
          <span aria-hidden="true">❝</span> {quotes}
        </button>
        <button type="button" className="action" aria-label="Share" onClick={() => more((a) => a.shareEcho(echo))}>
          <span aria-hidden="true">↗</span> Share
        </button>
        {!detail && (
          <a href={`/echo/${echo._id}`} className="action" aria-label="Open echo">
            Open
          </a>
        )}
      </footer>
      {editing && <EditDialog echo={echo} onSaved={markEdited} onClose={closeDialog(() => setEditing(false))} />}
      {quoting && <QuoteDialog echo={echo} onQuoted={() => setQuotes(quotes + 1)} onClose={() => (setQuoting(false), quoteButton.current?.focus())} />}
      {reporting && <ReportDialog echoId={echo._id} onClose={closeDialog(() => setReporting(false))} />}
      {saving && extensions.saveToScroll?.(echo, closeDialog(() => setSaving(false)))}
      {explaining && extensions.explain?.dialog(echo, closeDialog(() => setExplaining(false)))}
    </article>
  );
});
