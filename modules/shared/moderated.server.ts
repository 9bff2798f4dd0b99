// What moderators took out of the lists (issue 32, docs/decisions/029-moderation.md): echos hidden
// from everyone but their author, limited accounts (their echos leave the public lists) and
// suspended ones (their echos leave every list). All of it is ONE row, `moderation_set` (id 1), a
// JSON object "u:<user id>" → 1 limited / 2 suspended, "e:<echo id>" → 1 hidden, written by the
// moderator actions in their own batch (modules/moderation). Deletions use the same row (decision
// 032): "u:<id>" → 3 while a deleted account is purged, "e:<id>" → 2 while a deleted echo is —
// both leave every list at once, the author's own views included, and the purge's last step drops
// the entry.
//
// As with the viewer's hidden authors (hidden.server.ts), a list tests each candidate in its WHERE,
// before its LIMIT: the row is an uncorrelated subquery that SQLite reads once per statement (one
// row read, none at all before the first moderator action ever), and json_extract reads no table,
// so pages stay full and a list costs at most one row more.
import { sql, type Placeholder, type SQL } from "drizzle-orm";
import { lit } from "./sql/statement.server";

/** Where a list shows: public lists (All, tags, search, feeds, popular, curations) leave limited accounts out too. */
export type ModerationScope = "public" | "personal";

const SET = "ifnull((SELECT entries FROM moderation_set WHERE id = 1), '{}')";
/** The entries' values a deletion writes (decision 032): gone for everyone, its author too. */
export const DELETED_ACCOUNT = 3;
export const DELETED_ECHO = 2;

/** Both of a candidate's entries in one json_extract (one subquery in the statement): "[author,echo]". */
const SHOWN: Record<ModerationScope, string> = { public: "('[null,null]')", personal: "('[null,null]','[1,null]')" };

const col = (c: string | SQL) => (typeof c === "string" ? sql.raw(c) : c);

/**
 * Whether a candidate (author column, echo id column) may show to the viewer: the viewer's own
 * echos do unless deleted (an author sees their hidden echo, with its reason, decision 029).
 */
export const moderationVisible = (
  viewerId: string | Placeholder | SQL,
  authorCol: string | SQL,
  echoCol: string | SQL,
  scope: ModerationScope,
): SQL =>
  sql`(CASE WHEN ${col(authorCol)} = ${viewerId} THEN ifnull(json_extract(${sql.raw(SET)}, '$."e:' || ${col(echoCol)} || '"'), 0) <> ${sql.raw(String(DELETED_ECHO))}
    ELSE json_extract(${sql.raw(SET)}, '$."u:' || ${col(authorCol)} || '"', '$."e:' || ${col(echoCol)} || '"') IN ${sql.raw(SHOWN[scope])} END)`;

/** The same test as SQL text (the feed engine's statements): `viewerLiteral` an escaped SQL string literal. */
export const moderationVisibleText = (viewerLiteral: string, authorExpr: string, echoExpr: string, scope: ModerationScope): string =>
  `(CASE WHEN ${authorExpr} = ${viewerLiteral} THEN ifnull(json_extract(${SET}, '$."e:' || ${echoExpr} || '"'), 0) <> ${DELETED_ECHO} ELSE json_extract(${SET}, '$."u:' || ${authorExpr} || '"', '$."e:' || ${echoExpr} || '"') IN ${SHOWN[scope]} END)`;

/**
 * Only the echo's own entry (no author at hand): hidden echos leave, limited accounts' stay
 * (decision 029). With `viewerLiteral`, the viewer's own hidden echo stays (they still see it):
 * its author is read only for an echo that is hidden.
 */
export const moderationEchoVisibleText = (echoExpr: string, viewerLiteral?: string): string =>
  viewerLiteral === undefined
    ? `json_type(${SET}, '$."e:' || ${echoExpr} || '"') IS NULL`
    : `(json_type(${SET}, '$."e:' || ${echoExpr} || '"') IS NULL OR EXISTS (SELECT 1 FROM echos oe WHERE oe.id = ${echoExpr} AND oe.author_id = ${viewerLiteral}))`;

/**
 * Whether an account is neither limited nor suspended: what reaches others from it beyond its own
 * echos (its notifications: a like, a follow, a mention — decision 029, issue 32).
 */
export const accountVisible = (userCol: string | SQL): SQL => sql`json_type(${sql.raw(SET)}, '$."u:' || ${col(userCol)} || '"') IS NULL`;

/**
 * While an account is being purged (seconds), whether the entry's author is not that account, so
 * its echos leave at once; otherwise the set's row alone is read. `authorExpr`: the entry's author
 * (the engine's streams carry it: a tag link's copy since migration 0035).
 */
export const deletedAccountsVisibleText = (authorExpr: string): string =>
  `(NOT EXISTS (SELECT 1 FROM json_each(${SET}) WHERE value = ${DELETED_ACCOUNT}) OR ifnull(json_extract(${SET}, '$."u:' || ${authorExpr} || '"'), 0) <> ${DELETED_ACCOUNT})`;

/** Whether any moderation entry exists (a statement may skip probes that only moderation needs). */
export const hasModerationText = (): string => `EXISTS (SELECT 1 FROM moderation_set WHERE id = 1 AND entries <> '{}')`;

/** Every "[account,echo]" pair of entries with a deletion in it, as json_extract writes it. */
const DELETED_PAIRS = [
  ...["null", "1", "2"].map((e) => `[${DELETED_ACCOUNT},${e}]`),
  ...["null", "1", "2"].map((u) => `[${u},${DELETED_ECHO}]`),
];

/**
 * Whether an echo is marked deleted, or its account is, and waits for its purge (decision 032):
 * its place in a thread, or a quote's embed of it, reads "This echo was deleted".
 */
export const echoDeleted = (echoCol: string | SQL, authorCol?: string | SQL): SQL =>
  authorCol === undefined
    ? sql`ifnull(json_extract(${sql.raw(SET)}, '$."e:' || ${col(echoCol)} || '"'), 0) = ${sql.raw(String(DELETED_ECHO))}`
    : // the "[account,echo]" pair of entries, read from the set once: the account's 3 whatever the
      // echo's, or the echo's 2 whatever the account's (a limited author's deleted echo, a deleted
      // echo of an account deleted after it). Looked up in a constant string, not with IN: an IN
      // list of more than two values is an ephemeral table, one row read per echo of every page (a
      // hide-liked page of 20 read 208 rows, not 188); two reads of the set cost a row a statement
      sql`instr(${sql.raw(lit(`|${DELETED_PAIRS.join("|")}|`))}, '|' || json_extract(${sql.raw(SET)}, '$."u:' || ${col(authorCol)} || '"', '$."e:' || ${col(echoCol)} || '"') || '|') > 0`;

/**
 * A deletion's entry (decision 032), in the deletion's batch if `when` holds: the account or echo
 * leaves every list at once while its purge removes its rows. Not held to the set's bound (a
 * deletion is never refused; the entry lives for the purge's seconds).
 */
export const markDeleted = (key: string, value: typeof DELETED_ACCOUNT | typeof DELETED_ECHO, when: SQL): SQL =>
  sql`INSERT INTO moderation_set (id, entries) SELECT 1, json_object(${key}, ${sql.raw(String(value))}) WHERE ${when}
    ON CONFLICT (id) DO UPDATE SET entries = json_set(entries, '$."' || ${key} || '"', ${sql.raw(String(value))})`;

/** The purge's last step: the deletion's entry leaves the set (only a deletion's value, never a moderator's). */
export const unmarkDeleted = (key: string, value: typeof DELETED_ACCOUNT | typeof DELETED_ECHO): SQL =>
  sql`UPDATE moderation_set SET entries = json_remove(entries, '$."' || ${key} || '"')
    WHERE id = 1 AND json_extract(entries, '$."' || ${key} || '"') = ${sql.raw(String(value))}`;
