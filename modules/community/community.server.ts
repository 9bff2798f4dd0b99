// Community reads: KV first (the version the last ranking pass published), D1's ranked tables on
// a miss (then cached with a TTL). Nothing is ranked on the request path. Public scroll lists
// come straight from D1 (an indexed query), so privacy changes and the viewer's follows show at once.
import { ECHO_ROWS, PAGE_ROW_TARGET } from "../shared/index";
import { authorVisible, moderationVisible, batch, prepared, sql, type AppContext, select } from "../shared/index.server";
import { echoColumns, toEcho } from "../echo/index.server";
import { listPublicScrolls, PUBLIC_SCROLLS_MAX } from "../scroll/index.server";
import type { Echo } from "../echo/index";
import type { Scroll } from "../scroll/index";
import { type Period, type PopularSort, type Tag } from "./schema";
import { kvKeys, KV_TTL_SECONDS, listKey, rankedListQuery, tagColumns, trendingTagsQuery, type TagRow } from "./ranking.server";

async function cached<T>(app: AppContext, key: (version: number) => string, load: () => Promise<T>): Promise<T> {
  let version = 0;
  try {
    version = Number(await app.env.KV.get(kvKeys.version)) || 0;
    const hit = await app.env.KV.get<T>(key(version), "json");
    if (hit !== null) return hit;
  } catch (error) {
    console.error("KV read failed; serving from D1", error);
  }
  const value = await load();
  app.ctx.waitUntil(
    app.env.KV.put(key(version), JSON.stringify(value), { expirationTtl: KV_TTL_SECONDS }).catch((e) => console.error("KV write failed", e)),
  );
  return value;
}

const toTag = (r: TagRow): Tag => ({
  _id: r.name,
  name: r.name,
  count: r.echoCount,
  recentEchosCount: r.recentCount,
  createdAt: new Date(r.createdAt).toISOString(),
  description: "",
});

/** Trending tags: recent use (7 days), then all-time use, then the newest tag. */
export async function trendingTags(app: AppContext, limit: number): Promise<Tag[]> {
  const rows = await cached(app, kvKeys.tags, async () => {
    const [r] = await batch(app.db, [trendingTagsQuery]);
    return r;
  });
  return rows.slice(0, limit).map(toTag);
}

// the greatest code point: every name that starts with a prefix sorts below prefix + this
const AFTER_EVERY_NAME = "\u{10FFFF}";

/** Tags whose name starts with `from`, in name order: a range of the tags' primary key. */
const tagsByPrefix = prepared(["from", "to", "take"], (v) =>
  select(tagColumns, sql`FROM tags WHERE name >= ${v.from} AND name < ${v.to} ORDER BY name LIMIT ${v.take}`),
);

/**
 * Tags for a search term (the /search page's Tags tab): the tag of exactly that name first, then
 * the trending tags (the cached top 100) whose name holds the term, then any other tag whose name
 * starts with it — so a tag that is not trending is still found by its name or its start. Reads at
 * most `limit` rows of `tags` beyond the cached trending list.
 */
export async function searchTags(app: AppContext, term: string, limit: number): Promise<Tag[]> {
  if (!term) return [];
  const [trending, [prefixed]] = await Promise.all([
    trendingTags(app, 100),
    batch(app.db, [tagsByPrefix({ from: term, to: term + AFTER_EVERY_NAME, take: limit })]),
  ]);
  const byName = new Map<string, Tag>();
  const exact = prefixed.find((r) => r.name === term);
  for (const tag of [...(exact ? [toTag(exact)] : []), ...trending.filter((t) => t.name.includes(term)), ...prefixed.map(toTag)]) {
    if (!byName.has(tag.name)) byName.set(tag.name, tag);
  }
  return [...byName.values()].slice(0, limit);
}

/** How many more ranked ids a popular list hydrates than it shows (decision 026). */
const POPULAR_SPARE = 5;
/** What /browse/popular reads around its list (the shell, the session): measured 225 − 40 × 5. */
const POPULAR_PAGE_ROWS = 25;
/**
 * The most popular echos one read shows: it hydrates these and the spare, each ECHO_ROWS at worst
 * (the echo, its author, the viewer's like and repost, a quote's quoted echo), within the page's
 * row target with the page around them: 28 (35 when an echo read 4 rows; /browse/popular then
 * read 225 with quotes about; decision 027, "Pages sized by rows per echo").
 */
const POPULAR_MAX = Math.floor((PAGE_ROW_TARGET - POPULAR_PAGE_ROWS) / ECHO_ROWS) - POPULAR_SPARE;

/** Popular echos of a period and sort, hydrated for the viewer (like state) in one query. */
export async function popularEchos(app: AppContext, viewerId: string, period: Period, sort: PopularSort, limit: number): Promise<Echo[]> {
  const list = listKey(period, sort);
  const ids = await cached(app, (v) => kvKeys.popular(v, list), async () => {
    const [r] = await batch(app.db, [rankedListQuery(list)]);
    return r.map((x) => x.echoId);
  });
  // a few more than asked for, so that the authors the viewer does not see (issue 32) leave
  // the list without shortening it (a hidden one costs its echo row, not its hydration)
  limit = Math.min(limit, POPULAR_MAX);
  const wanted = ids.slice(0, limit + POPULAR_SPARE);
  if (wanted.length === 0) return [];
  const [rows] = await batch(app.db, [
    select(
      echoColumns(viewerId),
      sql`FROM echos e JOIN users u ON u.id = e.author_id WHERE e.id IN (SELECT value FROM json_each(${JSON.stringify(wanted)}))
        AND ${authorVisible(viewerId, "e.author_id")} AND ${moderationVisible(viewerId, "e.author_id", "e.id", "public")}`,
    ),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  // an echo deleted since the pass simply drops out
  return wanted.flatMap((id) => (byId.has(id) ? [toEcho(byId.get(id)!)] : [])).slice(0, limit);
}

/**
 * Newest public scrolls of a type; private ones never appear. Read from D1 on every request (one
 * indexed query): a cached copy showed a just-created scroll late and, worse, kept listing a scroll
 * for up to a minute after its creator made it private. Each carries the viewer's follow state
 * (`isFollowing`, `savedBy`), as every scroll object does, so a list can follow and unfollow.
 */
export async function publicScrolls(app: AppContext, viewerId: string, type: "feed" | "curation", limit: number): Promise<Scroll[]> {
  return listPublicScrolls(app, viewerId, type, Math.min(Math.max(limit, 1), PUBLIC_SCROLLS_MAX));
}
