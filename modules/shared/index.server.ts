// Server-only public face of the shared module.
export { appContext, createDb, memoize, type AppContext, type Db, type D1Stats } from "./context.server";
export {
  parseJson,
  parseInput,
  parseForm,
  toErrorResponse,
  isStorageError,
  apiHandler,
  apiRoute,
  methodNotAllowed,
  pageAction,
  queryOf,
  pageQuery,
  pageRequest,
  listCursor,
  type ApiRouteOptions,
  type RouteArgs,
} from "./api.server";
export * as tables from "./db/schema";
export { rateLimit, inlineLimit, batchUnderLimit, accountLimit, countAttempt, attempts, WRITE_LIMITS, type WriteLimitKind } from "./rate-limit.server";
export { readCookie, hasCookie } from "./cookies.server";
export { sql, type SQL } from "drizzle-orm";
export { select, returning, built, qb, columns, lit, type Statement, type Select, type Fields, type Builder, type Result, type RowOf } from "./sql/statement.server";
export { prepared, preparedAround } from "./sql/prepared.server";
export { batch, toD1, configureRequestDb, holdBatch } from "./sql/batch.server";
export { testAppContext, testUsers, overBudget, walkCounted, walkTable, type WalkedPage } from "./test-context.server";
export { instrumentD1, requestSpent, rowsLeftAfterOneTrip, ROW_BUDGET, failingD1, failingKV, d1Timing, STREAMED_D1_HEADER } from "./d1-stats.server";
export { sessionStart } from "./replicas.server";
export { readBookmark, bookmarkCookie } from "./bookmark-cookie.server";
export { trigramSearchable } from "./trigram.server";
export { boundedCache, boundedHints, forgetAllHints } from "./bounded-cache";
export { controlLive, liveUserChannel, LIVE_CLOSE, type LiveControl } from "./live-control.server";
export { runPurgeSteps, chainKey, DELETE_INLINE, inlineDeletable, type ChainSlice, type PurgeChain } from "./chain-steps.server";
export { sendChanges, startChain, stalledChains, CHAIN_STALL_MS, CHAINS_PER_PASS, type Change, type ChangedEcho } from "./change-stream.server";
export { liveVerdicts, verdictKey, type LivePage, type LiveVerdict } from "./live-visibility.server";
export { hiddenSet, authorVisible, authorVisibleText, authorVisibleInText, hasHidden, hasHiddenText, viewersHiding, blockedBetween } from "./hidden.server";
export { wordsVisible, wordsVisibleText, warnedWord, rebuildMutedWordSet } from "./muted-words.server";
export { viewerFiltersText, viewerHides, viewerHidesText, mutesWordsText, entryVisibleText, moderatesAnyoneText, echoVisibleProbeText, echoVisibleText, echoSeenForGoodText } from "./echo-probe.server";
export { moderationVisible, accountVisible, moderationVisibleText, moderationEchoVisibleText, hasModerationText, echoDeleted, markDeleted, deletedAccountsVisibleText, unmarkDeleted, DELETED_ACCOUNT, DELETED_ECHO, type ModerationScope } from "./moderated.server";
