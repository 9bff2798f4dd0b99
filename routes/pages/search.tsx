import { useCallback } from "react";
import { Form, Link } from "react-router";
import { requirePageViewerId } from "~/modules/auth/index.server";
import { searchTags } from "~/modules/community/index.server";
import {
  EchoExtensionsProvider,
  EchoFeed,
  LiveEdits,
  MAX_SEARCH_CHARS,
  SEARCH_ERRORS,
  SEARCH_MARKS,
  SEARCH_TABS,
  SearchPageQuerySchema,
  type EchoPage,
  type SearchTab,
} from "~/modules/echo/index";
import { searchEchos } from "~/modules/echo/index.server";
import { PeopleList } from "~/modules/profile/index";
import { searchPeople } from "~/modules/profile/index.server";
import { ScrollCard } from "~/modules/scroll/index";
import { searchPublicScrolls } from "~/modules/scroll/index.server";
import { api, HttpError, isWellFormedText } from "~/modules/shared/index";
import { appContext, pageQuery } from "~/modules/shared/index.server";
import { EmptyState } from "~/modules/shell/index";
import type { Route } from "./+types/search";

export const meta: Route.MetaFunction = () => [{ title: "Search · Echo" }];

const TAB_LABELS: Record<SearchTab, string> = { echos: "Echos", people: "People", scrolls: "Scrolls", tags: "Tags" };

/** What each tab says when it finds nothing (the scroll and tag texts are the spec's, §6). */
const TAB_EMPTY: Record<SearchTab, { title: string; detail: string }> = {
  echos: { title: "Nothing found", detail: "Try a different search term" },
  people: { title: "No users found", detail: "Try a different search term" },
  scrolls: { title: "No scrolls found", detail: "Try adjusting your search terms" },
  tags: { title: "No tags found", detail: "Try a different search term" },
};

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

/**
 * The top bar's search: one tab of results for q — echos (ranked, paged), people, public scrolls
 * or tags. Only the tab shown is read: the four searches together would read up to ~300 rows on
 * the million-echo store, each alone stays within the page budget (docs/product-notes.md).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const viewerId = await requirePageViewerId(app, request);
  const { q: full, type: tab } = pageQuery(request, SearchPageQuerySchema);
  const q = full.slice(0, 50);
  const none = { q: full, tab, viewerId, people: [], tags: [], scrolls: [], echos: null };
  if (!q) return none;
  // control characters (a %00 in the URL) are refused here as the API refuses them, not searched for
  if (!isWellFormedText(full)) return { ...none, illFormed: true };
  const term = q.toLowerCase().replace(/^#/, "");
  // "@bob" finds bob: the @ is how people are written, not part of a name
  const name = q.replace(/^@/, "");
  switch (tab) {
    case "echos": {
      const found = await echosOrProblem(searchEchos(app, viewerId, full, { page: 1, limit: 20 }));
      // no echos: maybe a person was meant (issue 29); their names are looked up then, in a
      // second round trip, so a search with echos reads no more than before
      if (found.echos?.echos.length !== 0) return { ...none, ...found };
      return { ...none, ...found, people: await searchPeople(app, viewerId, name) };
    }
    case "people":
      return { ...none, people: await searchPeople(app, viewerId, name) };
    case "scrolls":
      return { ...none, scrolls: await searchPublicScrolls(app, viewerId, term, 20) };
    case "tags":
      return { ...none, tags: await searchTags(app, term, 20) };
  }
}

function tabHref(q: string, tab: SearchTab) {
  const params = new URLSearchParams({ q });
  if (tab !== SEARCH_TABS[0]) params.set("type", tab);
  return `/search?${params}`;
}

export default function Search({ loaderData }: Route.ComponentProps) {
  const { q, tab, viewerId, people, tags, scrolls, echos } = loaderData;
  const illFormed = "illFormed" in loaderData;
  const problem = "problem" in loaderData ? loaderData.problem : undefined;
  const found = { echos: echos?.echos.length ?? 0, people: people.length, scrolls: scrolls.length, tags: tags.length }[tab];
  const nothing = q && !illFormed && !problem && found === 0;
  // on Echos with no echos, the people whose name matches are shown instead of a bare "Nothing found"
  const peopleInstead = tab === "echos" && nothing && people.length > 0;
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
        {tab !== SEARCH_TABS[0] && <input type="hidden" name="type" value={tab} />}
        <button type="submit" className="btn btn-primary">
          Search
        </button>
      </Form>
      {q && (
        <nav className="tabs" aria-label="Search results">
          {SEARCH_TABS.map((t) => (
            <Link key={t} to={tabHref(q, t)} className={t === tab ? "active" : undefined} aria-current={t === tab ? "page" : undefined}>
              {TAB_LABELS[t]}
            </Link>
          ))}
        </nav>
      )}
      {illFormed && <EmptyState title="Nothing found" detail="The search contains characters that are not allowed" />}
      {problem && <EmptyState title="Nothing found" detail={problem} />}
      {nothing && !peopleInstead && <EmptyState {...TAB_EMPTY[tab]} />}
      {peopleInstead && (
        <p className="search-note" data-testid="no-echos-people">
          No echos match “<bdi>{q}</bdi>”. {people.length === 1 ? "A person" : "People"} whose name matches:
        </p>
      )}
      {people.length > 0 && <PeopleList people={people} heading="People" headingId="search-people-heading" />}
      {tags.length > 0 && (
        <section className="card" aria-labelledby="search-tags-heading">
          <h2 id="search-tags-heading">Tags</h2>
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
        <section className="card" aria-labelledby="search-scrolls-heading">
          <h2 id="search-scrolls-heading">Scrolls</h2>
          <div className="scroll-grid">
            {scrolls.map((s) => (
              <ScrollCard key={s._id} scroll={s} />
            ))}
          </div>
        </section>
      )}
      {echos && echos.echos.length > 0 && (
        <section aria-labelledby="search-echos-heading" className="search-echos">
          <h2 id="search-echos-heading">Echos</h2>
          <EchoExtensionsProvider value={{ marks: SEARCH_MARKS }}>
            <EchoFeed key={q} restoreKey={`search:${q}`} initial={echos} fetchPage={fetchPage} viewerId={viewerId} empty={null} />
            {/* results have no channel of their own: their edits and deletions come live (decision 016) */}
            {/* a reopened socket rereads the first page: the edits and deletions of quotes it missed */}
            <LiveEdits query="edits=search" catchUp={{ path: `/api/search/echos?${new URLSearchParams({ q, limit: "20" })}` }} />
          </EchoExtensionsProvider>
        </section>
      )}
    </div>
  );
}
