// Counting characters as a person does, on its own: every echo card checks its tags with it
// (tags.ts), so it is on home's first load; the rest of the text rules (text.ts: well-formedness,
// clamping, isolation) are for forms, schemas and other pages, and load with them.

let segmenter: Intl.Segmenter | undefined;
/** A text's grapheme clusters (one Intl.Segmenter, made on first use). */
export const graphemes = (text: string) => (segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" })).segment(text);

/**
 * Length as a person counts characters: grapheme clusters (an emoji, a family emoji, a flag, a
 * letter with its accents are one each), not UTF-16 code units or code points.
 */
export function charCount(text: string): number {
  // all-ASCII (the common case) has one cluster per unit except "\r\n", which is one
  if (/^[\u0000-\u007F]*$/.test(text)) return text.length - (text.match(/\r\n/g)?.length ?? 0);
  let n = 0;
  for (const _ of graphemes(text)) n++;
  return n;
}
