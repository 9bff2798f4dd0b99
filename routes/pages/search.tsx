import { Form, Link } from "react-router";
import { requirePageViewerId } from "~/modules/auth/index.server";
import { publicScrolls, trendingTags } from "~/modules/community/index.server";
import { searchUsers } from "~/modules/profile/index.server";
import { ScrollCard } from "~/modules/scroll/index";
import { isWellFormedText } from "~/modules/shared/index";
import { appContext } from "~/modules/shared/index.server";
import { EmptyState } from "~/modules/shell/index";
import type { Route } from "./+types/search";

export const meta: Route.MetaFunction = () => [{ title: "Search · Echo" }];

/** The top bar's search: users, tags and public scrolls matching q. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const viewerId = await requirePageViewerId(app, request);
  const q = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, 50);
  if (!q) return { q, users: [], tags: [], scrolls: [] };
  // control characters (a %00 in the URL) are refused here as the API refuses them, not searched for
  if (!isWellFormedText(q)) return { q, users: [], tags: [], scrolls: [], illFormed: true };
  const term = q.toLowerCase().replace(/^#/, "");
  const [users, tags, feeds, curations] = await Promise.all([
    searchUsers(app, q),
    trendingTags(app, 100),
    publicScrolls(app, viewerId, "feed", 100),
    publicScrolls(app, viewerId, "curation", 100),
  ]);
  const scrolls = [...feeds, ...curations].filter((s) => [s.name, s.description].some((f) => f.toLowerCase().includes(term)));
  return { q, users, tags: tags.filter((t) => t.name.includes(term)).slice(0, 20), scrolls: scrolls.slice(0, 20) };
}

export default function Search({ loaderData }: Route.ComponentProps) {
  const { q, users, tags, scrolls } = loaderData;
  const illFormed = "illFormed" in loaderData;
  const nothing = q && !illFormed && users.length === 0 && tags.length === 0 && scrolls.length === 0;
  return (
    <div className="page">
      <h1 className="page-title">Search</h1>
      <Form method="get" role="search" className="toolbar">
        <input type="search" name="q" defaultValue={q} className="search-input" aria-label="Search" placeholder="Users, tags and scrolls" autoFocus />
        <button type="submit" className="btn btn-primary">
          Search
        </button>
      </Form>
      {illFormed && <EmptyState title="Nothing found" detail="The search contains characters that are not allowed" />}
      {nothing && <EmptyState title="Nothing found" detail="Try a different search term" />}
      {users.length > 0 && (
        <section className="card">
          <h2>Users</h2>
          <ul className="panel-list">
            {users.map((u) => (
              <li key={u._id}>
                <Link to={`/user/${u._id}`}>@{u.userName}</Link>
              </li>
            ))}
          </ul>
        </section>
      )}
      {tags.length > 0 && (
        <section className="card">
          <h2>Tags</h2>
          <div className="chips">
            {tags.map((t) => (
              <Link key={t._id} to={`/tag/${encodeURIComponent(t.name)}`} className="tag-chip">
                #<bdi>{t.name}</bdi>
              </Link>
            ))}
          </div>
        </section>
      )}
      {scrolls.length > 0 && (
        <section className="card">
          <h2>Scrolls</h2>
          <div className="scroll-grid">
            {scrolls.map((s) => (
              <ScrollCard key={s._id} scroll={s} />
            ))}
          </div>
        </section>
      )}
    </div>
  );
}
