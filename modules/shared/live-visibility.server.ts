// What a live socket may get of a new echo (issue 32, decision 016 "Live updates and safety"):
// the lists' own tests, for every viewer of a publish at once — the author not hidden from the
// viewer (a block either way, a mute), moderation (a limited account's echo leaves the public
// pages, a suspended one's every page), and the viewer's muted words in the page's context (a
// hide word: not sent; a warn word: sent with the phrase, collapsed as the lists show it).
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "./context.server";
import { authorVisible } from "./hidden.server";
import { moderationVisible, type ModerationScope } from "./moderated.server";
import type { MuteContext } from "./mute-text";
import { warnedWord, wordsVisible } from "./muted-words.server";
import { select } from "./sql/statement.server";
import { batch } from "./sql/batch.server";

/**
 * A page a socket shows: its muted-word context and whether it is public (decision 029). An
 * echo's page has no context (null): a thread shows every reply the viewer may see, as its
 * read does (decision 024).
 */
export type LivePage = { context: MuteContext | null; scope: ModerationScope };

/** `author`: the author and moderation let the viewer see it (an edit cannot change that; words it can) */
export type LiveVerdict = { shown: boolean; author: boolean; warn: string | null };

const pageKey = (p: LivePage) => `${p.context}|${p.scope}`;
export const verdictKey = (viewerId: string, page: LivePage) => `${viewerId}|${pageKey(page)}`;

/**
 * The verdicts for each (viewer, page) pair, keyed by {@link verdictKey}: one statement per kind
 * of page among them (at most a few), in one batch. The echo's row is read once a statement;
 * each viewer costs a probe of their hidden authors and of their muted words. An echo gone
 * meanwhile has no verdict (nobody gets it).
 */
export async function liveVerdicts(db: Db, echoId: string, pairs: readonly { viewerId: string; page: LivePage }[]): Promise<Map<string, LiveVerdict>> {
  const byPage = new Map<string, { page: LivePage; viewers: Set<string> }>();
  for (const { viewerId, page } of pairs) {
    const k = pageKey(page);
    if (!byPage.has(k)) byPage.set(k, { page, viewers: new Set() });
    byPage.get(k)!.viewers.add(viewerId);
  }
  const groups = [...byPage.values()];
  if (groups.length === 0) return new Map();
  const viewer: SQL = sql`v.value`;
  const statements = groups.map(({ page, viewers }) =>
    select(
      {
        viewerId: sql<string>`v.value`,
        author: sql<number>`(${authorVisible(viewer, "e.author_id")} AND ${moderationVisible(viewer, "e.author_id", "e.id", page.scope)})`,
        words: page.context ? sql<number>`${wordsVisible(viewer, page.context)}` : sql<number>`1`,
        warn: page.context ? warnedWord(viewer, page.context) : sql<string | null>`NULL`,
      },
      sql`FROM echos e CROSS JOIN json_each(${JSON.stringify([...viewers])}) v WHERE e.id = ${echoId}`,
    ),
  );
  const results = await batch(db, statements);
  const out = new Map<string, LiveVerdict>();
  groups.forEach(({ page }, i) => {
    for (const row of results[i] ?? []) out.set(verdictKey(row.viewerId, page), { shown: row.author === 1 && row.words === 1, author: row.author === 1, warn: row.warn });
  });
  return out;
}
