// "Download my data" (GET /api/profile/me/export): one JSON file with everything the user made,
// streamed. Each table is read page by page by its key (EXPORT_PAGE rows a statement) only when
// the reader wants more (a pull stream: backpressure), so 100,000 echos never sit in the
// Worker's memory at once. The one endpoint outside the 2-round-trip budget: it costs a round
// trip per page of each table (docs/product-notes.md "Your data"), so it is limited per account
// (WRITE_LIMITS.export) and, where D1 stats are exposed, states its whole cost at its end.
import { notFound } from "../shared/index";
import { alias } from "drizzle-orm/sqlite-core";
import { accountLimit, batch, returning, select, sql, STREAMED_D1_HEADER, tables, type AppContext, type RowOf, type Select } from "../shared/index.server";
import { toRule } from "../scroll/index.server";

/** Rows a page statement returns: with the joins it reads at most about twice that. */
export const EXPORT_PAGE = 200;

const { users, echos, likes, reposts, scrolls, scrollEchos, userFollows, scrollFollows } = tables;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Every row of a keyset-paged query, a page at a time; `page(after)` reads the page after a row. */
async function* pages<R>(app: AppContext, page: (after: R | null) => Select<R>): AsyncGenerator<R[]> {
  let after: R | null = null;
  for (;;) {
    const [rows]: [R[]] = await batch(app.db, [page(after)]);
    if (rows.length) yield rows;
    if (rows.length < EXPORT_PAGE) return;
    after = rows[rows.length - 1]!;
  }
}

/** A JSON array written element by element from paged rows. */
async function* jsonArray<R, T>(rows: AsyncGenerator<R[]>, shape: (row: R) => T | Promise<T>, write = (v: T) => JSON.stringify(v)): AsyncGenerator<string> {
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

// a reply says what it replied to (decision 024), a quote what it quotes (027); the warning is
// part of what was written (025)
const echoColumns = {
  id: echos.id,
  content: echos.content,
  tags: echos.tags,
  createdAt: echos.createdAt,
  likesCount: echos.likesCount,
  parentId: echos.parentId,
  quoteOfId: echos.quoteOfId,
  warning: echos.warning,
};
const echoPages = (app: AppContext, userId: string) =>
  pages(app, (after: RowOf<typeof echoColumns> | null) =>
    select(
      echoColumns,
      sql`FROM echos WHERE ${echos.authorId} = ${userId} ${after ? sql`AND ${echos.id} > ${after.id}` : sql``} ORDER BY ${echos.id} LIMIT ${EXPORT_PAGE}`,
    ),
  );

const likeColumns = { echoId: likes.echoId, createdAt: likes.createdAt };
const likePages = (app: AppContext, userId: string) =>
  pages(app, (after: RowOf<typeof likeColumns> | null) =>
    select(
      likeColumns,
      sql`FROM likes WHERE ${likes.userId} = ${userId} ${after ? sql`AND ${likes.echoId} > ${after.echoId}` : sql``} ORDER BY ${likes.echoId} LIMIT ${EXPORT_PAGE}`,
    ),
  );

// one's reposts (decision 027), oldest first: a range of `reposts_user (user_id, id)`
const repostColumns = { id: reposts.id, echoId: reposts.echoId, createdAt: reposts.createdAt };
const repostPages = (app: AppContext, userId: string) =>
  pages(app, (after: RowOf<typeof repostColumns> | null) =>
    select(
      repostColumns,
      sql`FROM reposts WHERE ${reposts.userId} = ${userId} ${after ? sql`AND ${reposts.id} > ${after.id}` : sql``} ORDER BY ${reposts.id} LIMIT ${EXPORT_PAGE}`,
    ),
  );

/** A scroll's own columns and its feed rule: what the export keeps of it. */
const scrollColumns = {
  id: scrolls.id,
  name: scrolls.name,
  description: scrolls.description,
  type: scrolls.type,
  isPrivate: scrolls.isPrivate,
  createdAt: scrolls.createdAt,
  tagMatchType: scrolls.tagMatchType,
  includedTags: scrolls.includedTags,
  excludedTags: scrolls.excludedTags,
  authors: scrolls.authors,
  sortBy: scrolls.sortBy,
  sortTimeRange: scrolls.sortTimeRange,
  excludeLikedEchos: scrolls.excludeLikedEchos,
  startDate: scrolls.startDate,
  endDate: scrolls.endDate,
  replies: scrolls.replies,
};
type ScrollRow = RowOf<typeof scrollColumns>;

const scrollPages = (app: AppContext, userId: string) =>
  pages(app, (after: ScrollRow | null) =>
    select(
      scrollColumns,
      sql`FROM scrolls WHERE ${scrolls.creatorId} = ${userId} ${after ? sql`AND ${scrolls.id} > ${after.id}` : sql``} ORDER BY ${scrolls.id} LIMIT ${EXPORT_PAGE}`,
    ),
  );

/** A curation's items, newest added first (the order its page shows). */
const itemColumns = { echoId: scrollEchos.echoId, addedAt: scrollEchos.addedAt };
const itemPages = (app: AppContext, scrollId: string) =>
  pages(app, (after: RowOf<typeof itemColumns> | null) =>
    select(
      itemColumns,
      sql`FROM scroll_echos WHERE ${scrollEchos.scrollId} = ${scrollId}
        ${after ? sql`AND ${scrollEchos.addedAt} <= ${after.addedAt} AND (${scrollEchos.addedAt} < ${after.addedAt} OR ${scrollEchos.echoId} < ${after.echoId})` : sql``}
        ORDER BY ${scrollEchos.addedAt} DESC, ${scrollEchos.echoId} DESC LIMIT ${EXPORT_PAGE}`,
    ),
  );

const u = alias(users, "u");
const f = alias(userFollows, "f");

const followColumns = { followeeId: f.followeeId, userName: u.userName, createdAt: f.createdAt };
const followPages = (app: AppContext, userId: string) =>
  pages(app, (after: RowOf<typeof followColumns> | null) =>
    select(
      followColumns,
      sql`FROM user_follows f JOIN users u ON ${u.id} = ${f.followeeId}
        WHERE ${f.followerId} = ${userId} ${after ? sql`AND ${f.followeeId} > ${after.followeeId}` : sql``}
        ORDER BY ${f.followeeId} LIMIT ${EXPORT_PAGE}`,
    ),
  );

// scroll_follows is `f` in its statement as user_follows is in its own
const sf = alias(scrollFollows, "f");
const s = alias(scrolls, "s");

/** Followed scrolls: a scroll made private since is listed by id only (its name is its creator's). */
const followedScrollColumns = (userId: string) => ({
  scrollId: sf.scrollId,
  name: sql<string | null>`CASE WHEN ${s.isPrivate} = 0 OR ${s.creatorId} = ${userId} THEN ${s.name} END`,
  createdAt: sf.createdAt,
});
const followedScrollPages = (app: AppContext, userId: string) =>
  pages(app, (after: RowOf<ReturnType<typeof followedScrollColumns>> | null) =>
    select(
      followedScrollColumns(userId),
      sql`FROM scroll_follows f JOIN scrolls s ON ${s.id} = ${sf.scrollId}
        WHERE ${sf.userId} = ${userId} ${after ? sql`AND ${sf.scrollId} > ${after.scrollId}` : sql``}
        ORDER BY ${sf.scrollId} LIMIT ${EXPORT_PAGE}`,
    ),
  );

/** A scroll and, for a curation, its items (an array streamed inside the scroll's object). */
async function* scrollJson(app: AppContext, row: ScrollRow): AsyncGenerator<string> {
  const isFeed = row.type === "feed";
  const scroll = {
    _id: row.id,
    name: row.name,
    description: row.description,
    type: row.type,
    isPrivate: row.isPrivate,
    createdAt: iso(row.createdAt),
    rules: isFeed ? { ...toRule(row), startDate: iso(row.startDate), endDate: iso(row.endDate) } : null,
  };
  if (isFeed) return yield JSON.stringify(scroll);
  yield `${JSON.stringify(scroll).slice(0, -1)},"items":`;
  yield* jsonArray(itemPages(app, row.id), (r) => ({ echoId: r.echoId, addedAt: iso(r.addedAt) }));
  yield "}";
}

/** The profile the export opens with. */
const profileColumns = { id: users.id, userName: users.userName, bio: users.bio, email: users.email, createdAt: users.createdAt };

async function* exportJson(app: AppContext, profile: RowOf<typeof profileColumns>): AsyncGenerator<string> {
  const userId = profile.id;
  const head = {
    format: "echo-export/1",
    exportedAt: new Date().toISOString(),
    profile: { _id: userId, userName: profile.userName, bio: profile.bio, email: profile.email, createdAt: iso(profile.createdAt) },
  };
  yield `${JSON.stringify(head).slice(0, -1)},\n"echos":`;
  yield* jsonArray(echoPages(app, userId), (r) => ({ _id: r.id, content: r.content, tags: r.tags, createdAt: iso(r.createdAt), likes: r.likesCount, parentId: r.parentId, quoteOfId: r.quoteOfId, warning: r.warning }));
  yield `,\n"likes":`;
  yield* jsonArray(likePages(app, userId), (r) => ({ echoId: r.echoId, likedAt: iso(r.createdAt) }));
  yield `,\n"reposts":`;
  yield* jsonArray(repostPages(app, userId), (r) => ({ echoId: r.echoId, repostedAt: iso(r.createdAt) }));
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
  yield* jsonArray(followPages(app, userId), (r) => ({ _id: r.followeeId, userName: r.userName, followedAt: iso(r.createdAt) }));
  yield `,\n"followedScrolls":`;
  yield* jsonArray(followedScrollPages(app, userId), (r) => ({ _id: r.scrollId, name: r.name ?? null, followedAt: iso(r.createdAt) }));
  // where D1 stats are exposed, the whole request's cost, the stream's reads included: the
  // Server-Timing header went out before the first of them (verticals/app.ts)
  const stats = app.d1Stats;
  yield stats ? `,\n"d1":${JSON.stringify({ roundTrips: stats.roundTrips, rowsRead: stats.rowsRead, rowsWritten: stats.rowsWritten })}\n}\n` : "\n}\n";
}

/**
 * The export as a download. The profile is read before the answer starts (an unknown account is
 * a 404 with a status, not a broken file); everything else streams. A storage failure mid-way
 * aborts the body, so a reader never takes a truncated file for a whole one.
 */
export async function exportResponse(app: AppContext, userId: string): Promise<Response> {
  // the account's export limit rides in the profile's read (one round trip); a refused export
  // is a 429 before any byte of the file
  const limit = accountLimit("export", userId);
  const [counted, rows] = await batch(app.db, [
    returning(limit.upsert, { count: tables.rateLimits.count }),
    select(profileColumns, sql`FROM users WHERE ${users.id} = ${userId}`),
  ]);
  const tooMany = limit.exceeded(counted[0]?.count);
  if (tooMany) throw tooMany;
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
      "Content-Disposition": `attachment; filename="echo-${profile.userName}.json"`,
      "Cache-Control": "no-store",
      // the body reads D1 as it streams: Server-Timing counts only what ran before it
      [STREAMED_D1_HEADER]: "1",
    },
  });
}
