// One probe of an echo's row for everything a viewer may not see of it (issue 32): an author they
// hide (decision 026), a moderated author or echo in a public list (decision 029), a muted word
// that hides it (decision 028). For lists whose candidates carry no echo row of their own — a feed
// index's entries, the engine's merged tag streams — so that the test goes in the statement,
// before its LIMIT, and a page steps over what the viewer does not see instead of coming back
// short by it. The probe costs the echo's row (1 row a candidate), so a list asks for it only when
// `viewerFiltersText` holds: the viewer hides anyone or mutes any word, or moderation limits or
// suspends anyone (hidden echos alone are tested on the id, no row: moderationEchoVisibleText).
import { sql, type Placeholder, type SQL } from "drizzle-orm";
import { authorVisibleText, hasHidden, hiddenForGoodText } from "./hidden.server";
import { textOf } from "./sql/statement.server";
import { moderationVisibleText } from "./moderated.server";
import { wordsVisibleText } from "./muted-words.server";
import type { MuteContext } from "./mute-text";

/**
 * Whether any candidate may be hidden from this viewer by its author or its words: uncorrelated,
 * so SQLite evaluates it once per statement (a row or two: the viewer's set, their words' row,
 * the moderation row). `viewerLiteral` is an escaped SQL string literal.
 */
export const viewerFiltersText = (viewerLiteral: string): string => `(${viewerHidesText(viewerLiteral)} OR ${moderatesAnyoneText})`;

/**
 * The viewer's own part of that test: they hide anyone or mute any word. What chooses the kind of
 * viewer index their pages read (decision 033, "Which readers are hiders"): moderation, tested by
 * every page on its own, leaves no echo out of any viewer index, so it does not count there.
 */
export const viewerHides = (viewerId: string | Placeholder | SQL): SQL => sql`(${hasHidden(viewerId)} OR ${mutesWords(viewerId)})`;

/** The same test as SQL text (`viewerLiteral`: an escaped SQL string literal or a column). */
export const viewerHidesText = (viewerLiteral: string): string => textOf(viewerHides(sql.raw(viewerLiteral)));

/** Whether the viewer mutes any word (their words' row): what only an echo row's words can test. */
export const mutesWords = (viewerId: string | Placeholder | SQL): SQL => sql`EXISTS (SELECT 1 FROM muted_word_sets WHERE user_id = ${viewerId})`;
export const mutesWordsText = (viewerLiteral: string): string => textOf(mutesWords(sql.raw(viewerLiteral)));

/**
 * Whether an entry that carries its echo's author (a tag link, a feed index entry: migration 0035)
 * shows to the viewer in a public list as far as its author and id tell, no row read: an author
 * they hide, a limited or suspended author, a hidden echo (issue 32, decision 029). What is left to
 * the echo row is its words (`mutesWordsText`).
 */
export const entryVisibleText = (viewerLiteral: string, authorExpr: string, idExpr: string): string =>
  `(${authorVisibleText(viewerLiteral, authorExpr)} AND ${moderationVisibleText(viewerLiteral, authorExpr, idExpr, "public")})`;

/** Whether moderation limits or suspends anyone (the moderation row). */
export const moderatesAnyoneText = `EXISTS (SELECT 1 FROM moderation_set WHERE id = 1 AND instr(entries, '"u:') > 0)`;

/** Whether the echo row aliased `alias`, already read, shows to the viewer in a public list of `context` (no row). */
export const echoVisibleText = (viewerLiteral: string, alias: string, context: MuteContext): string =>
  `(${entryVisibleText(viewerLiteral, `${alias}.author_id`, `${alias}.id`)} AND ${wordsVisibleText(viewerLiteral, context, `${alias}.mute_text`, `${alias}.author_id`)})`;

/**
 * Whether the echo `idExpr` (an outer column, qualified) shows to the viewer in a public list of
 * `context`: one read of its row (alias `pe`), 0 when it is gone.
 */
export const echoVisibleProbeText = (viewerLiteral: string, idExpr: string, context: MuteContext): string =>
  `ifnull((SELECT ${echoVisibleText(viewerLiteral, "pe", context)} FROM echos pe WHERE pe.id = ${idExpr}), 0)`;

/**
 * Whether the echo row aliased `alias` stays shown to the viewer in feeds whatever the clock does:
 * its author is not hidden from them for good (a block either way, a mute without end) and no
 * muted word of theirs without an end hides it (decision 033, "The hiding half"). What a hiding
 * viewer index leaves out; a timed mute or word and moderation stay the page's tests.
 */
export const echoSeenForGoodText = (viewerLiteral: string, alias: string): string =>
  `(NOT ${hiddenForGoodText(viewerLiteral, `${alias}.author_id`)} AND ${wordsVisibleText(viewerLiteral, "feeds", `${alias}.mute_text`, `${alias}.author_id`, true)})`;
