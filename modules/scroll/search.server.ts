// Scroll search (the search page's scrolls): public scrolls whose name or description holds a
// term, a bounded read of the trigram index (migrations/0015_name_search.sql).
import { authorVisible, batch, sql, trigramSearchable, type AppContext } from "../shared/index.server";
import { scrollSelect, toScroll } from "./rows.server";
import type { Scroll } from "./schema";

/** Search reads at most this many indexed matches (public or not), newest first. */
const SEARCH_CANDIDATES = 30;
/** Fewer characters than a trigram: the newest public scrolls are searched instead. */
const SEARCH_RECENT = 40;

/**
 * Public scrolls (both types) whose name or description contains `term`, case-insensitively,
 * newest first, at most `limit`. A bounded read: the trigram index of migrations/0015 gives the
 * newest SEARCH_CANDIDATES matches (private ones among them are dropped); a term of one or two
 * characters is looked for among the SEARCH_RECENT newest public scrolls only.
 */
export async function searchPublicScrolls(app: AppContext, viewerId: string, term: string, limit: number): Promise<Scroll[]> {
  const needle = term.toLowerCase();
  if (!needle) return [];
  if (!trigramSearchable(needle)) {
    const [rows] = await batch(app.db, [scrollSelect(viewerId, sql`WHERE s.is_private = 0 AND ${authorVisible(viewerId, "s.creator_id")} ORDER BY s.id DESC LIMIT ${SEARCH_RECENT}`)]);
    return rows
      .filter((r) => r.name.toLowerCase().includes(needle) || r.description.toLowerCase().includes(needle))
      .slice(0, limit)
      .map((r) => toScroll(r, viewerId));
  }
  // one FTS5 phrase: the term's trigrams in a row, i.e. the term as a substring ('"' doubled)
  const phrase = `"${needle.replaceAll('"', '""')}"`;
  const [rows] = await batch(app.db, [
    scrollSelect(
      viewerId,
      sql`WHERE s.id IN (
          SELECT sid FROM scroll_search WHERE scroll_search MATCH ${`{name description}: ${phrase}`}
          ORDER BY rowid DESC LIMIT ${SEARCH_CANDIDATES})
        AND s.is_private = 0 AND ${authorVisible(viewerId, "s.creator_id")} ORDER BY s.id DESC LIMIT ${limit}`,
    ),
  ]);
  return rows.map((r) => toScroll(r, viewerId));
}
