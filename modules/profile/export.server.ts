// "Download my data" (GET /api/profile/me/export): one JSON file with everything the user made,
// streamed. Each table is read page by page by its key (EXPORT_PAGE rows a statement) only when
// the reader wants more (a pull stream: backpressure), so 100,000 echos never sit in the
// Worker's memory at once. The one endpoint outside the 2-round-trip budget: it costs a round
// trip per page of each table (docs/product-notes.md "Your data").
import { notFound } from "../shared/index";
import { batchAll, sql, type AppContext, type SQL } from "../shared/index.server";

/** Rows a page statement returns: with the joins it reads at most about twice that. */
export const EXPORT_PAGE = 200;

type Row = Record<string, unknown>;
const iso = (ms: unknown) => (typeof ms === "number" ? new Date(ms).toISOString() : null);
const list = (json: unknown) => JSON.parse(String(json ?? "[]")) as string[];

/** Every row of a keyset-paged query, a page at a time; `page(after)` reads the page after a row. */
async function* pages(app: AppContext, page: (after: Row | null) => SQL): AsyncGenerator<Row[]> {
  let after: Row | null = null;
  for (;;) {
    const [rows]: [Row[]] = await batchAll<[Row[]]>(app.db, [page(after)]);
    if (rows.length) yield rows;
    if (rows.length < EXPORT_PAGE) return;
    after = rows[rows.length - 1]!;
  }
}

/** A JSON array written element by element from paged rows. */
async function* jsonArray<T>(rows: AsyncGenerator<Row[]>, shape: (row: Row) => T | Promise<T>, write = (v: T) => JSON.stringify(v)): AsyncGenerator<string> {
  yield "[";
  let first = true;
  for await (const page of rows) {
    for (const row of page) {
      yield `${first ? "" : ","}\n${write(await shape(row))}`;
      first = false;
    }
  }
  yield first ? "]" : "\n]";
}

const echoPages = (app: AppContext, userId: string) =>
  pages(app, (after) => sql`SELECT id, content, tags, created_at, likes_count FROM echos
    WHERE author_id = ${userId} ${after ? sql`AND id > ${after.id as string}` : sql``} ORDER BY id LIMIT ${EXPORT_PAGE}`);

const likePages = (app: AppContext, userId: string) =>
  pages(app, (after) => sql`SELECT echo_id, created_at FROM likes
    WHERE user_id = ${userId} ${after ? sql`AND echo_id > ${after.echo_id as string}` : sql``} ORDER BY echo_id LIMIT ${EXPORT_PAGE}`);

const scrollPages = (app: AppContext, userId: string) =>
  pages(app, (after) => sql`SELECT id, name, description, type, is_private, created_at, tag_match_type, included_tags,
    excluded_tags, authors, sort_by, sort_time_range, exclude_liked_echos, start_date, end_date FROM scrolls
    WHERE creator_id = ${userId} ${after ? sql`AND id > ${after.id as string}` : sql``} ORDER BY id LIMIT ${EXPORT_PAGE}`);

/** A curation's items, newest added first (the order its page shows). */
const itemPages = (app: AppContext, scrollId: string) =>
  pages(app, (after) => sql`SELECT echo_id, added_at FROM scroll_echos WHERE scroll_id = ${scrollId}
    ${after ? sql`AND (added_at < ${after.added_at as number} OR (added_at = ${after.added_at as number} AND echo_id < ${after.echo_id as string}))` : sql``}
    ORDER BY added_at DESC, echo_id DESC LIMIT ${EXPORT_PAGE}`);

const followPages = (app: AppContext, userId: string) =>
  pages(app, (after) => sql`SELECT f.followee_id, u.user_name, f.created_at FROM user_follows f JOIN users u ON u.id = f.followee_id
    WHERE f.follower_id = ${userId} ${after ? sql`AND f.followee_id > ${after.followee_id as string}` : sql``}
    ORDER BY f.followee_id LIMIT ${EXPORT_PAGE}`);

/** Followed scrolls: a scroll made private since is listed by id only (its name is its creator's). */
const followedScrollPages = (app: AppContext, userId: string) =>
  pages(app, (after) => sql`SELECT f.scroll_id, CASE WHEN s.is_private = 0 OR s.creator_id = ${userId} THEN s.name END AS name, f.created_at
    FROM scroll_follows f JOIN scrolls s ON s.id = f.scroll_id
    WHERE f.user_id = ${userId} ${after ? sql`AND f.scroll_id > ${after.scroll_id as string}` : sql``}
    ORDER BY f.scroll_id LIMIT ${EXPORT_PAGE}`);

/** A scroll and, for a curation, its items (an array streamed inside the scroll's object). */
async function* scrollJson(app: AppContext, row: Row): AsyncGenerator<string> {
  const isFeed = row.type === "feed";
  const scroll = {
    _id: row.id,
    name: row.name,
    description: row.description,
    type: row.type,
    isPrivate: row.is_private === 1,
    createdAt: iso(row.created_at),
    rules: isFeed
      ? {
          tagMatchType: row.tag_match_type,
          includedTags: list(row.included_tags),
          excludedTags: list(row.excluded_tags),
          authors: list(row.authors),
          sortBy: row.sort_by,
          sortTimeRange: row.sort_time_range,
          excludeLikedEchos: row.exclude_liked_echos === 1,
          startDate: iso(row.start_date),
          endDate: iso(row.end_date),
        }
      : null,
  };
  if (isFeed) return yield JSON.stringify(scroll);
  yield `${JSON.stringify(scroll).slice(0, -1)},"items":`;
  yield* jsonArray(itemPages(app, row.id as string), (r) => ({ echoId: r.echo_id, addedAt: iso(r.added_at) }));
  yield "}";
}

async function* exportJson(app: AppContext, profile: Row): AsyncGenerator<string> {
  const userId = profile.id as string;
  const head = {
    format: "echo-export/1",
    exportedAt: new Date().toISOString(),
    profile: { _id: userId, userName: profile.user_name, bio: profile.bio, email: profile.email, createdAt: iso(profile.created_at) },
  };
  yield `${JSON.stringify(head).slice(0, -1)},\n"echos":`;
  yield* jsonArray(echoPages(app, userId), (r) => ({ _id: r.id, content: r.content, tags: list(r.tags), createdAt: iso(r.created_at), likes: r.likes_count }));
  yield `,\n"likes":`;
  yield* jsonArray(likePages(app, userId), (r) => ({ echoId: r.echo_id, likedAt: iso(r.created_at) }));
  yield `,\n"scrolls":[`;
  let first = true;
  for await (const page of scrollPages(app, userId)) {
    for (const row of page) {
      yield first ? "\n" : ",\n";
      first = false;
      yield* scrollJson(app, row);
    }
  }
  yield first ? "]" : "\n]";
  yield `,\n"following":`;
  yield* jsonArray(followPages(app, userId), (r) => ({ _id: r.followee_id, userName: r.user_name, followedAt: iso(r.created_at) }));
  yield `,\n"followedScrolls":`;
  yield* jsonArray(followedScrollPages(app, userId), (r) => ({ _id: r.scroll_id, name: r.name ?? null, followedAt: iso(r.created_at) }));
  yield "\n}\n";
}

/**
 * The export as a download. The profile is read before the answer starts (an unknown account is
 * a 404 with a status, not a broken file); everything else streams. A storage failure mid-way
 * aborts the body, so a reader never takes a truncated file for a whole one.
 */
export async function exportResponse(app: AppContext, userId: string): Promise<Response> {
  const [rows] = await batchAll<[Row[]]>(app.db, [sql`SELECT id, user_name, bio, email, created_at FROM users WHERE id = ${userId}`]);
  const profile = rows[0];
  if (!profile) throw notFound("User not found");
  const chunks = exportJson(app, profile);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (error) {
        console.error("export stream failed", error);
        controller.error(error);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="echo-${profile.user_name as string}.json"`,
      "Cache-Control": "no-store",
    },
  });
}
