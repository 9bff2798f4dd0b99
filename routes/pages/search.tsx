import { useCallback } from "react";
import { Form, Link } from "react-router";
import { requirePageViewerId } from "~/modules/auth/index.server";
import { trendingTags } from "~/modules/community/index.server";
import { EchoExtensionsProvider, EchoFeed, MAX_SEARCH_CHARS, SEARCH_ERRORS, SEARCH_MARKS, SearchPageQuerySchema, type EchoPage } from "~/modules/echo/index";
import { searchEchos } from "~/modules/echo/index.server";
import { searchUsers } from "~/modules/profile/index.server";
import { ScrollCard } from "~/modules/scroll/index";
import { searchPublicScrolls } from "~/modules/scroll/index.server";
import { api, HttpError, isWellFormedText } from "~/modules/shared/index";
import { appContext, pageQuery } from "~/modules/shared/index.server";
import { EmptyState } from "~/modules/shell/index";
import type { Route } from "./+types/search";

export const meta: Route.MetaFunction = () => [{ title: "Search · Echo" }];

/** What the page says instead of the echos when the API would answer 400 (never a 500 page). */
async function echosOrProblem(found: Promise<EchoPage>): Promise<{ echos: EchoPage | null; problem?: string }> {
  try {
    return { echos: await found };
  } catch (error) {
    const known = error instanceof HttpError && Object.values(SEARCH_ERRORS).find((e) => e.api === error.message);
    if (!known) throw error;
    return { echos: null, problem: known.page };
  }
}

/** The top bar's search: echos (ranked, paged), users, tags and public scrolls matching q. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const viewerId = await requirePageViewerId(app, request);
  const full = pageQuery(request, SearchPageQuerySchema).q;
  const q = full.slice(0, 50);
  const none = { q: full, viewerId, users: [], tags: [], scrolls: [], echos: null };
  if (!q) return none;
  // control characters (a %00 in the URL) are refused here as the API refuses them, not searched for
  if (!isWellFormedText(full)) return { ...none, illFormed: true };
  const term = q.toLowerCase().replace(/^#/, "");
  const [found, users, tags, scrolls] = await Promise.all([
    echosOrProblem(searchEchos(app, viewerId, full, { page: 1, limit: 20 })),
    searchUsers(app, q),
    trendingTags(app, 100),
    searchPublicScrolls(app, viewerId, term, 20),
  ]);
  return {
    q: full,
    viewerId,
    users,
    tags: tags.filter((t) => t.name.includes(term)).slice(0, 20),
    scrolls,
    ...found,
  };
}

export default function Search({ loaderData }: Route.ComponentProps) {
  const { q, viewerId, users, tags, scrolls, echos } = loaderData;
  const illFormed = "illFormed" in loaderData;
  const problem = "problem" in loaderData ? loaderData.problem : undefined;
  const hasEchos = (echos?.echos.length ?? 0) > 0;
  const nothing = q && !illFormed && !problem && !hasEchos && users.length === 0 && tags.length === 0 && scrolls.length === 0;
  const fetchPage = useCallback(
    (page: number, cursor: string | null) => {
      const params = new URLSearchParams({ q, page: String(page) });
      if (cursor) params.set("cursor", cursor);
      return api<EchoPage>(`/search/echos?${params}`, { fallback: "Failed to fetch echos" });
    },
    [q],
  );
  return (
    <div className="page">
      <h1 className="page-title">Search</h1>
      <Form method="get" role="search" className="toolbar">
        <input
          type="search"
          name="q"
          defaultValue={q}
          maxLength={MAX_SEARCH_CHARS}
          className="search-input"
          aria-label="Search"
          placeholder="Words, #tags, @users and scrolls"
          autoFocus
        />
        <button type="submit" className="btn btn-primary">
          Search
        </button>
      </Form>
      {illFormed && <EmptyState title="Nothing found" detail="The search contains characters that are not allowed" />}
      {problem && <EmptyState title="Nothing found" detail={problem} />}
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
      {echos && hasEchos && (
        <section aria-labelledby="search-echos-heading" className="search-echos">
          <h2 id="search-echos-heading">Echos</h2>
          <EchoExtensionsProvider value={{ marks: SEARCH_MARKS }}>
            <EchoFeed key={q} restoreKey={`search:${q}`} initial={echos} fetchPage={fetchPage} viewerId={viewerId} empty={null} />
          </EchoExtensionsProvider>
        </section>
      )}
    </div>
  );
}
