// Public face of the shared module for client and server code alike.
export { newId, isId, ID_PATTERN } from "./ids";
export { HttpError, badRequest, unauthorized, forbidden, notFound, conflict, errorBody, errorResponse, ERROR_SHAPE_HEADER } from "./http";
export { relativeTime } from "./time";
export { firstIssue, text, wellFormed, maxChars, minChars } from "./validation";
export { charCount } from "./char-count";
export { clampChars, isolate, isWellFormedText, illFormedField, ILL_FORMED_MESSAGE, UNITS_PER_CHAR } from "./text";
export {
  PageQuerySchema,
  DEFAULT_LIMIT,
  MAX_LIMIT,
  LIST_MAX_LIMIT,
  ECHO_ROWS,
  PAGE_FIXED_ROWS,
  PAGE_ROW_TARGET,
  largestPage,
  candidateRowsFor,
  clampLimit,
  pagination,
  knownSoFar,
  encodeCursor,
  decodeCursor,
  cursorSchema,
  cursorInteger,
  ListCursorSchema,
  CURSOR_INVALID,
  type ListCursor,
  type Pagination,
} from "./pagination";
export { idFloor, idCeil, idTime } from "./ids";
export { dateText, rangeStart, rangeEnd } from "./dates";
export { api, ApiError, OFFLINE_HINT } from "./api-client";
export { carryToasts, toast, Toaster } from "./toast";
export { useFetcherAnswer, type FormAnswer } from "./fetcher-answer";
export { usePagedList, useScrollMore, nextPageQuery, type PageAt, type ListPage, type PagedList } from "./paged-list";
export { LoadMore } from "./load-more";
export { LazyLoadMore } from "./lazy-load-more";
export { cachedImport, lazyComponent } from "./lazy";
export { followInAppLink } from "./in-app-links";
export { MAX_USER_NAME, USER_NAME_PATTERN, LEGACY_USER_NAME_PATTERN, isUserName, mentionedName } from "./user-names";
export { RETURN_PARAM, safeReturnPath, authPathFor, pagePathOf } from "./return-to";
export { foldWords, echoMuteText, mutePattern, MUTE_CONTEXTS, MUTE_CONTEXT_LABELS, MUTE_CONTEXT_BITS, MAX_MUTED_WORDS, MAX_MUTED_WORD, type MuteContext } from "./mute-text";
