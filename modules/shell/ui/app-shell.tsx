import { useEffect, useState, type MouseEvent, type ReactNode } from "react";
import { useLocation, useNavigate } from "react-router";
import { api, followInAppLink, toast } from "../../shared/index";
import { useDrawerFocus } from "./drawer-focus";
import { MAIN_ID } from "./navigation-feedback";

type ShellUser = { _id: string; userName: string };

/** NavLink's rule: the path itself, or (without `end`) any path below it; case-insensitive. */
export function isActivePath(here: string, to: string, end: boolean): boolean {
  const path = here.toLowerCase();
  const target = to.toLowerCase();
  return path === target || (!end && target !== "/" && path.startsWith(target) && path.charAt(target.length) === "/");
}

/**
 * The shell's links are plain `<a href>`s, marked active as NavLink would (class and
 * aria-current), and one handler on each part of the chrome (top bar, sidebar, right panel)
 * makes their clicks client-side navigations
 * (followInAppLink): a <Link> or <NavLink> per link cost every page's server render its hooks and
 * path resolutions, about a twentieth of a home render (profiled).
 */
const navLink = (here: string) => (to: string, label: string, end = false) => {
  const active = isActivePath(here, to, end);
  return (
    <a href={to} className={active ? "nav-link active" : "nav-link"} aria-current={active ? "page" : undefined}>
      {label}
    </a>
  );
};

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
  const navigate = useNavigate();
  const nav = navLink(location.pathname);
  // the chrome's own links only: the page in <main> keeps its links' own behaviour
  const follow = (e: MouseEvent<Element>) => void followInAppLink(e, navigate);
  useEffect(() => setOpen(false), [location.pathname]);
  const { toggle, sidebar } = useDrawerFocus(open, () => setOpen(false));
  return (
    <div className="shell">
      <header className="topbar" onClick={follow}>
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
        <a href="/" className="logo">
          Echo
        </a>
        <a href="/search" className="icon-btn search-btn" aria-label="Search" title="Search users, tags and scrolls">
          ⌕
        </a>
        {bell}
      </header>
      {/* a followed link closes the drawer at once, so the new page's heading can take focus */}
      <aside
        ref={sidebar}
        id="sidebar"
        className={open ? "sidebar open" : "sidebar"}
        aria-label="Sidebar"
        onClick={(e) => {
          if ((e.target as Element).closest("a")) setOpen(false);
          follow(e);
        }}
      >
        <nav className="nav-group">
          <a href="/new" className="btn btn-primary create-echo">
            Create Echo
          </a>
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
          <SignOut />
        </nav>
      </aside>
      {open && <div className="scrim" onClick={() => setOpen(false)} aria-hidden="true" />}
      <main className="main" id={MAIN_ID} tabIndex={-1} inert={open}>
        {children}
      </main>
      <aside className="right-panel" aria-label="Your scrolls" inert={open} onClick={follow}>
        {rightPanel ?? (
          <>
            <h2 className="panel-heading">Your Scrolls</h2>
            <p className="muted">Feeds and curations you make or follow show here.</p>
            <a href="/scroll/new" className="btn btn-block">
              Create Scroll
            </a>
          </>
        )}
      </aside>
    </div>
  );
}

/**
 * Sign Out in the sidebar (issue 29: it was only the last card of /settings), the spec's
 * confirmation first; then "Logged out successfully" on /login, as from Settings.
 */
function SignOut() {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  async function signOut() {
    if (busy || !window.confirm("Are you sure you want to logout?")) return;
    setBusy(true);
    try {
      await api("/auth/logout", { method: "POST", fallback: "Failed to log out" });
    } catch (error) {
      setBusy(false);
      toast.error((error as Error).message);
      return;
    }
    toast.success("Logged out successfully");
    navigate("/login", { replace: true });
  }
  return (
    <button type="button" className="nav-link nav-button" onClick={signOut} disabled={busy}>
      Sign Out
    </button>
  );
}
