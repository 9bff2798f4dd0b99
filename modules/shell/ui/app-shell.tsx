import { useEffect, useState, type ReactNode } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { useDrawerFocus } from "./drawer-focus";
import { MAIN_ID } from "./navigation-feedback";

type ShellUser = { _id: string; userName: string };

const nav = (to: string, label: string, end = false) => (
  <NavLink to={to} end={end} className={({ isActive }) => (isActive ? "nav-link active" : "nav-link")}>
    {label}
  </NavLink>
);

/** Spec §2 layout: left sidebar, top bar, main column, right panel on large screens. */
export function AppShell({ user, children, rightPanel, sidebarScrolls, bell }: {
  user: ShellUser;
  children: ReactNode;
  rightPanel?: ReactNode;
  sidebarScrolls?: ReactNode;
  /** the notifications bell (modules/notification), after Search in the top bar */
  bell?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const location = useLocation();
  useEffect(() => setOpen(false), [location.pathname]);
  const { toggle, sidebar } = useDrawerFocus(open, () => setOpen(false));
  return (
    <div className="shell">
      <header className="topbar">
        <button
          ref={toggle}
          type="button"
          className="icon-btn sidebar-toggle"
          aria-label="Toggle sidebar"
          aria-expanded={open}
          aria-controls="sidebar"
          onClick={() => setOpen((o) => !o)}
        >
          ☰
        </button>
        <Link to="/" className="logo">
          Echo
        </Link>
        <Link to="/search" className="icon-btn search-btn" aria-label="Search" title="Search users, tags and scrolls">
          ⌕
        </Link>
        {bell}
      </header>
      {/* a followed link closes the drawer at once, so the new page's heading can take focus */}
      <aside
        ref={sidebar}
        id="sidebar"
        className={open ? "sidebar open" : "sidebar"}
        aria-label="Sidebar"
        onClick={(e) => (e.target as Element).closest("a") && setOpen(false)}
      >
        <nav className="nav-group">
          <Link to="/new" className="btn btn-primary create-echo">
            Create Echo
          </Link>
          {nav("/", "Feed", true)}
          {nav("/scrolls", "Scrolls", true)}
          {nav("/community", "Explore")}
        </nav>
        <section className="nav-group" aria-labelledby="nav-scrolls">
          <h2 id="nav-scrolls" className="nav-heading">
            Scrolls
          </h2>
          {sidebarScrolls}
          {nav("/scrolls/feeds", "My Feeds")}
          {nav("/scrolls/curations", "My Curations")}
        </section>
        <section className="nav-group" aria-labelledby="nav-browse">
          <h2 id="nav-browse" className="nav-heading">
            Browse
          </h2>
          {nav("/browse-community", "Community Scroll")}
          {nav("/browse/tags", "Tags")}
          {nav("/browse/popular", "Popular")}
        </section>
        <nav className="nav-group nav-bottom">
          {nav("/profile", `@${user.userName}`)}
          {nav("/settings", "Settings")}
        </nav>
      </aside>
      {open && <div className="scrim" onClick={() => setOpen(false)} aria-hidden="true" />}
      <main className="main" id={MAIN_ID} tabIndex={-1} inert={open}>
        {children}
      </main>
      <aside className="right-panel" aria-label="Your scrolls" inert={open}>
        {rightPanel ?? (
          <>
            <h2 className="panel-heading">Your Scrolls</h2>
            <p className="muted">Feeds and curations you make or follow show here.</p>
            <Link to="/scroll/new" className="btn btn-block">
              Create Scroll
            </Link>
          </>
        )}
      </aside>
    </div>
  );
}
