// How a search window's hits are ranked (decision 021): Okapi BM25's term-frequency saturation
// and length normalisation, computed here from each hit's own marked text, with every term
// weighted the same. FTS5's bm25() also weighs terms by their rarity (IDF), which it learns by
// counting each term's whole doclist: work that grows with the store (issue 28 item 9). Every hit
// of a window matches every term (the terms are ANDed), so for a one-term search the IDF is one
// factor shared by all hits and the order is bm25's; only a many-term search loses the rarer
// term's extra weight.
import type { SearchTerm } from "./search-query";
import { indexedTag } from "./search-query";

/** BM25's constants, FTS5's defaults. */
const K1 = 1.2;
const B = 0.75;
/** FTS5 counts every column in a row's length: the author and eid columns are one token each. */
const UNSCORED_TOKENS = 2;

// highlight() wraps each matched token in these; echo text never holds C0 controls (validation.ts)
export const OPEN = "\u0001";
export const CLOSE = "\u0002";

/** Tokens as unicode61 cuts them, folded as `remove_diacritics 2` and case folding do. */
function tokens(text: string): string[] {
  const folded = text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
  return folded.match(/[\p{L}\p{N}\p{Co}]+/gu) ?? [];
}

/** How many tokens a text holds (a marked text's markers are not tokens). */
export const tokenCount = (text: string) => tokens(text).length;

/** The marked pieces of a highlight()ed text, each as its tokens. */
function markedPieces(marked: string): string[][] {
  const pieces: string[][] = [];
  let at = marked.indexOf(OPEN);
  while (at >= 0) {
    const end = marked.indexOf(CLOSE, at);
    if (end < 0) break;
    pieces.push(tokens(marked.slice(at + 1, end)));
    at = marked.indexOf(OPEN, end);
  }
  return pieces;
}

/** Occurrences of a token sequence in another (highlight() may merge touching matches). */
function occurrences(phrase: string[], within: string[]): number {
  if (phrase.length === 0) return 0;
  let n = 0;
  for (let i = 0; i + phrase.length <= within.length; i++) {
    if (phrase.every((t, j) => within[i + j] === t)) n++;
  }
  return n;
}

/** A window row as the ranking needs it: the body and tags columns with the matches marked. */
export type MarkedHit = { marked: string | null; markedTags: string | null };

/** One ranking's scorer: higher is better. @user terms score nothing (FTS5's weight 0 too). */
export function scorer(terms: SearchTerm[]): (hits: MarkedHit[]) => number[] {
  // each scored term with the columns it is matched in: words in body and tags, #tags in tags
  const scored = terms.flatMap((t) =>
    t.kind === "words" ? [{ phrase: tokens(t.text), body: true }] : t.kind === "tag" ? [{ phrase: tokens(indexedTag(t.tag)), body: false }] : [],
  );
  return (hits) => {
    const rows = hits.map((h) => {
      const body = markedPieces(h.marked ?? "");
      const tags = markedPieces(h.markedTags ?? "");
      const length = tokenCount(h.marked ?? "") + tokenCount(h.markedTags ?? "") + UNSCORED_TOKENS;
      const tf = scored.map(({ phrase, body: inBody }) => {
        let n = 0;
        if (inBody) for (const p of body) n += occurrences(phrase, p);
        for (const p of tags) n += occurrences(phrase, p);
        return n;
      });
      return { length, tf };
    });
    // the window's mean length stands for the store's (bounded: FTS5 reads the store's total)
    const avg = rows.reduce((s, r) => s + r.length, 0) / Math.max(1, rows.length);
    return rows.map(({ length, tf }) =>
      tf.reduce((s, f) => s + (f * (K1 + 1)) / (f + K1 * (1 - B + (B * length) / Math.max(1, avg))), 0),
    );
  };
}
