import { useEffect } from "react";
import { Link, useLocation, useRevalidator } from "react-router";
import { EmptyState } from "../../shell/index";
import type { Scroll, ScrollType } from "../schema";
import { deleteScroll } from "./scroll-actions";
import { ScrollCard } from "./scroll-card";

function useDelete() {
  const revalidator = useRevalidator();
  return async (scroll: Scroll) => {
    if (await deleteScroll(scroll)) void revalidator.revalidate();
  };
}

function Group({ title, scrolls, render, manage }: {
  title: string;
  scrolls: Scroll[];
  render: (s: Scroll) => React.ReactNode;
  /** link to the page that edits this group (My Scrolls only) */
  manage?: { to: string; label: string };
}) {
  return (
    <section className="scroll-group">
      <div className="scroll-group-head">
        <h3>
          {title} <span className="count">{scrolls.length}</span>
        </h3>
        {manage && <Link to={manage.to}>{manage.label}</Link>}
      </div>
      {scrolls.length === 0 ? <p className="muted">None yet</p> : <div className="scroll-grid">{scrolls.map(render)}</div>}
    </section>
  );
}

/** A page of the viewer's scrolls (the loaders read one page: SCROLLS_PAGE, newest first). */
type Paged = { nextCursor: string | null; isFirstPage: boolean };

/** Links to the older page and back to the newest: a plain link works before hydration too. */
function Pager({ nextCursor, isFirstPage }: Paged) {
  const { pathname } = useLocation();
  if (!nextCursor && isFirstPage) return null;
  return (
    <nav className="scroll-pager" aria-label="More scrolls">
      {!isFirstPage && <Link to={pathname}>Newest scrolls</Link>}
      {nextCursor && (
        <Link to={`${pathname}?cursor=${encodeURIComponent(nextCursor)}`} className="btn">
          Older scrolls
        </Link>
      )}
    </nav>
  );
}

/** History state /scroll/new leaves on its way to /scrolls: the scroll just created. */
export type CreatedState = { createdScroll: string };

/** /scrolls (spec §2): followed scrolls (others') and mine, each split into feeds and curations. */
export function ScrollsOverview({ scrolls, viewerId, ...paged }: { scrolls: Scroll[]; viewerId: string } & Paged) {
  const onDelete = useDelete();
  const followed = scrolls.filter((s) => s.creator._id !== viewerId);
  const mine = scrolls.filter((s) => s.creator._id === viewerId);
  // just created (issue 29): said at the top with a link to it, marked New, brought into view
  const createdId = (useLocation().state as Partial<CreatedState> | null)?.createdScroll;
  const created = mine.find((s) => s._id === createdId);
  useEffect(() => {
    if (created) document.querySelector(".scroll-card.just-created")?.scrollIntoView({ block: "nearest" });
  }, [created]);
  const card = (s: Scroll) => <ScrollCard key={s._id} scroll={s} />;
  const mineCard = (s: Scroll) => (
    <ScrollCard
      key={s._id}
      isNew={s._id === createdId}
      scroll={s}
      actions={
        <button type="button" className="btn btn-danger btn-sm" onClick={() => onDelete(s)}>
          Delete
        </button>
      }
    />
  );
  return (
    <div className="page">
      <header className="page-header">
        <h1 className="page-title">Scrolls</h1>
        <Link to="/scroll/new" className="btn btn-primary">
          Create Scroll
        </Link>
      </header>
      {created && (
        <p className="card created-notice" data-testid="created-notice">
          Your {created.type} “<bdi>{created.name}</bdi>” is created. <Link to={`/scroll/${created._id}`}>Open it</Link>
        </p>
      )}
      {scrolls.length === 0 && paged.isFirstPage ? (
        <EmptyState title="No scrolls yet" detail="Create a feed or a curation, or follow one from the community.">
          <Link to="/scroll/new" className="btn btn-primary">
            Create Scroll
          </Link>
          <Link to="/community" className="btn">
            Browse Community Scrolls
          </Link>
        </EmptyState>
      ) : (
        <>
          <section className="card">
            <h2>Followed Scrolls</h2>
            <Group title="Feed" scrolls={followed.filter((s) => s.type === "feed")} render={card} />
            <Group title="Curation" scrolls={followed.filter((s) => s.type === "curation")} render={card} />
          </section>
          <section className="card">
            <h2>My Scrolls</h2>
            <Group title="Feeds" scrolls={mine.filter((s) => s.type === "feed")} render={mineCard} manage={{ to: "/scrolls/feeds", label: "Manage feeds" }} />
            <Group
              title="Curations"
              scrolls={mine.filter((s) => s.type === "curation")}
              render={mineCard}
              manage={{ to: "/scrolls/curations", label: "Manage curations" }}
            />
          </section>
          <Pager {...paged} />
        </>
      )}
    </div>
  );
}

/** /scrolls/feeds and /scrolls/curations: own scrolls of one type with edit, delete, create. */
export function ScrollsByType({ scrolls, type, viewerId, ...paged }: { scrolls: Scroll[]; type: ScrollType; viewerId: string } & Paged) {
  const onDelete = useDelete();
  const mine = scrolls.filter((s) => s.creator._id === viewerId && s.type === type);
  const title = type === "feed" ? "My Feeds" : "My Curations";
  return (
    <div className="page">
      <header className="page-header">
        <h1 className="page-title">{title}</h1>
        <Link to={`/scroll/new?type=${type}`} className="btn btn-primary">
          {type === "feed" ? "Create Feed" : "Create Curation"}
        </Link>
      </header>
      {mine.length === 0 && paged.isFirstPage ? (
        <EmptyState title="No scrolls yet" detail={type === "feed" ? "A feed shows every echo that matches its rules." : "A curation holds echos you pick."} />
      ) : (
        <div className="scroll-grid">
          {mine.map((s) => (
            <ScrollCard
              key={s._id}
              scroll={s}
              actions={
                <>
                  <Link to={`/scroll/${s._id}/edit`} className="btn btn-sm">
                    Edit
                  </Link>
                  <button type="button" className="btn btn-danger btn-sm" onClick={() => onDelete(s)}>
                    Delete
                  </button>
                </>
              }
            />
          ))}
        </div>
      )}
      <Pager {...paged} />
    </div>
  );
}
