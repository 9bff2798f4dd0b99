// The trigram FTS5 indexes of migrations/0015_name_search.sql (user names, scroll names and
// descriptions) find a substring only when it has at least three characters (code points):
// shorter terms are searched another way by each caller.
export const TRIGRAM_CHARS = 3;

/** Whether a term is long enough for a trigram index. */
export const trigramSearchable = (term: string): boolean => Array.from(term).length >= TRIGRAM_CHARS;
