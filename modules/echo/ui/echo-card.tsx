import { memo, useEffect, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { lazyComponent, relativeTime } from "../../shared/index";
import type { Echo } from "../schema";
import { copyLink, deleteEcho, shareEcho, toggleLike } from "./echo-actions";
import { useEchoStore } from "./echo-store";
import { useEchoExtensions } from "./echo-extensions";

// opened from the menu only: its code loads then
const ReportDialog = lazyComponent(() => import("./report-dialog").then((m) => m.ReportDialog));

type Props = {
  echo: Echo;
  viewerId: string;
  /** the detail page shows the full date and no link on the body */
  detail?: boolean;
  onDeleted?: (id: string) => void;
};

/** One echo: author, time, text (never HTML), tags, like, share and the menu (spec §2). */
export const EchoCard = memo(function EchoCard({ echo, viewerId, detail, onDeleted }: Props) {
  const store = useEchoStore();
  const extensions = useEchoExtensions();
  const [saving, setSaving] = useState(false);
  const [removed, setRemoved] = useState(false);
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const [reporting, setReporting] = useState(false);
  const liking = useRef(false);
  const menuRef = useRef<HTMLDivElement>(null);
  const like = store.likeOf(echo._id) ?? { likes: echo.likes, isLiked: echo.isLiked };

  // An open menu closes on a click outside it or on Escape (focus returns to its button).
  useEffect(() => {
    if (!menuOpen) return;
    const onPointerDown = (e: PointerEvent) => {
      if (!menuRef.current?.contains(e.target as Node)) setMenuOpen(false);
    };
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setMenuOpen(false);
      menuRef.current?.querySelector<HTMLButtonElement>("button[aria-haspopup]")?.focus();
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [menuOpen]);
  const isAuthor = echo.author._id === viewerId;
  if ((store.isDeleted(echo._id) && !detail) || removed) return null;
  const removeFromScroll = extensions.removeFromScroll;

  // optimistic (echo-actions.ts); the button stays enabled so keyboard focus stays on it, and a
  // click while the previous one is on its way is ignored
  async function onLike() {
    if (liking.current) return;
    liking.current = true;
    await toggleLike(echo._id, like);
    liking.current = false;
  }

  async function onDelete() {
    setMenuOpen(false);
    if (await deleteEcho(echo._id)) onDeleted?.(echo._id);
  }

  return (
    <article className={detail ? "echo-card echo-detail" : "echo-card"} data-testid="echo-card" data-echo-id={echo._id}>
      <header className="echo-head">
        <Link to={`/user/${echo.author._id}`} className="echo-author">
          @<bdi>{echo.author.userName}</bdi>
        </Link>
        {/* "now" → "1m" can tick between the server's render and hydration (more so under load): the
            server's text stays until the next render instead of failing hydration */}
        <time dateTime={echo.createdAt} title={new Date(echo.createdAt).toUTCString()} className="echo-time" suppressHydrationWarning>
          {detail ? new Date(echo.createdAt).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) : relativeTime(echo.createdAt)}
        </time>
        <div className="echo-menu" ref={menuRef}>
          <button
            type="button"
            className="icon-btn icon-btn-sm"
            aria-label="Echo menu"
            aria-haspopup="menu"
            aria-expanded={menuOpen}
            onClick={() => setMenuOpen((o) => !o)}
          >
            ⋯
          </button>
          {menuOpen && (
            <div role="menu" className="menu">
              <button role="menuitem" type="button" onClick={() => (setMenuOpen(false), void copyLink(echo._id))}>
                Copy Link
              </button>
              {extensions.saveToScroll && (
                <button role="menuitem" type="button" onClick={() => (setMenuOpen(false), setSaving(true))}>
                  Save to Scroll
                </button>
              )}
              {removeFromScroll && (
                <button
                  role="menuitem"
                  type="button"
                  onClick={async () => {
                    setMenuOpen(false);
                    if (await removeFromScroll(echo)) setRemoved(true);
                  }}
                >
                  Remove from Scroll
                </button>
              )}
              {isAuthor ? (
                <button role="menuitem" type="button" className="danger" onClick={onDelete}>
                  Delete Echo
                </button>
              ) : (
                <button role="menuitem" type="button" onClick={() => (setMenuOpen(false), setReporting(true))}>
                  Report
                </button>
              )}
            </div>
          )}
        </div>
      </header>
      {detail ? (
        <p className="echo-content" dir="auto">
          {echo.content}
        </p>
      ) : (
        <p
          className="echo-content clickable"
          dir="auto"
          onClick={(e) => {
            if (!window.getSelection()?.toString()) navigate(`/echo/${echo._id}`);
            e.stopPropagation();
          }}
        >
          {echo.content}
        </p>
      )}
      {echo.tags.length > 0 && (
        <ul className="echo-tags">
          {echo.tags.map((tag) => (
            <li key={tag._id}>
              <Link to={`/tag/${encodeURIComponent(tag.name)}`} className="tag-chip">
                #<bdi>{tag.name}</bdi>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <footer className="echo-actions">
        <button
          type="button"
          className={like.isLiked ? "action liked" : "action"}
          aria-pressed={like.isLiked}
          aria-label={like.isLiked ? "Unlike" : "Like"}
          onClick={onLike}
        >
          <span aria-hidden="true">{like.isLiked ? "♥" : "♡"}</span> <span className="like-count">{like.likes}</span>
        </button>
        <button type="button" className="action" aria-label="Share" onClick={() => void shareEcho(echo)}>
          <span aria-hidden="true">↗</span> Share
        </button>
        {!detail && (
          <Link to={`/echo/${echo._id}`} className="action" aria-label="Open echo">
            Open
          </Link>
        )}
      </footer>
      {reporting && <ReportDialog echoId={echo._id} onClose={() => setReporting(false)} />}
      {saving && extensions.saveToScroll?.(echo, () => setSaving(false))}
    </article>
  );
});
