// What a search box's text means (issue 18): words, #tags and @users, all required (AND). The
// user's text never reaches FTS5's MATCH syntax: each word is cut to its letters, digits and
// combining marks and put inside double quotes, so " * ^ : ( ) - NEAR AND OR NOT are plain text.
import { badRequest, charCount, mentionedName } from "../shared/index";
import { isValidTag, normalizeTag } from "./tags";

export const MAX_SEARCH_CHARS = 200;
export const MAX_SEARCH_TERMS = 10;

/** The API's 400s (they name q), and how the search page says the same to a person. */
export const SEARCH_ERRORS = {
  required: { api: "q is required", page: "Type a word, a #tag or an @user" },
  tooLong: { api: `q must be at most ${MAX_SEARCH_CHARS} characters`, page: `A search is at most ${MAX_SEARCH_CHARS} characters` },
  tooMany: { api: `q may have at most ${MAX_SEARCH_TERMS} words`, page: `A search has at most ${MAX_SEARCH_TERMS} words` },
} as const;

export type SearchTerm =
  | { kind: "words"; text: string } // one or more tokens, matched as a phrase ("well-known")
  | { kind: "tag"; tag: string } // the echo carries this tag
  | { kind: "user"; userName: string }; // the echo's author

/** The tokens FTS5's unicode61 tokenizer would see, joined by spaces ("" when there are none). */
const wordText = (word: string) => word.replace(/[^\p{L}\p{N}\p{M}]+/gu, " ").trim();

function term(word: string): SearchTerm | null {
  if (word.startsWith("#")) {
    const tag = normalizeTag(word);
    if (isValidTag(tag)) return { kind: "tag", tag };
  }
  if (word.startsWith("@")) {
    // read as a mention is (modules/shared/user-names.ts), and only when the whole word is one
    const rest = word.slice(1);
    const userName = /^[A-Za-z0-9_.-]+$/.test(rest) ? mentionedName(rest) : null;
    if (userName) return { kind: "user", userName };
  }
  const text = wordText(word);
  return text ? { kind: "words", text } : null;
}

/**
 * The terms of q. Empty, blank, too long or too many words: a 400 naming q. Words with nothing
 * searchable in them (only punctuation) are dropped, so such a query finds nothing.
 */
export function parseSearch(q: string | undefined): SearchTerm[] {
  const text = (q ?? "").trim();
  if (!text) throw badRequest(SEARCH_ERRORS.required.api);
  if (charCount(text) > MAX_SEARCH_CHARS) throw badRequest(SEARCH_ERRORS.tooLong.api);
  const words = text.split(/\s+/u);
  if (words.length > MAX_SEARCH_TERMS) throw badRequest(SEARCH_ERRORS.tooMany.api);
  return words.map(term).filter((t): t is SearchTerm => t !== null);
}

/** A tag as the index stores it: '-' and '_' become private-use letters (migration 0013). */
export const indexedTag = (tag: string) => tag.replace(/-/g, "\uE000").replace(/_/g, "\uE001");
