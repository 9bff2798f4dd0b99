import { describe, expect, it } from "vitest";
import { parseSearch } from "./search-query";
import { scorer } from "./search-rank";

const mark = (s: string) => s.replace(/\[/g, "\u0001").replace(/\]/g, "\u0002");
const score = (q: string, hits: [string, string][]) => scorer(parseSearch(q))(hits.map(([b, t]) => ({ marked: mark(b), markedTags: mark(t) })));

describe("search ranking (decision 021)", () => {
  it("more of the word, and a shorter echo, score higher; saturating like BM25", () => {
    const [short, long, twice] = score("tea", [
      ["[tea] time", ""],
      ["[tea] time with many other words around it here", ""],
      ["[Tea] and more [tea] with many other words around it", ""],
    ]);
    expect(short).toBeGreaterThan(long!);
    expect(twice).toBeGreaterThan(long!);
    // saturation: the second occurrence adds less than the first
    const [one, two, three] = score("tea", [["[tea] a b c d e", ""], ["[tea] [tea] b c d e", ""], ["[tea] [tea] [tea] c d e", ""]]);
    expect(two! - one!).toBeGreaterThan(three! - two!);
  });

  it("counts a word's matches in the tags, a #tag's only there, phrases and folded letters", () => {
    const [inTags, notInTags] = score("coffee", [["[coffee] x", "[coffee]"], ["[coffee] x", "tea"]]);
    expect(inTags).toBeGreaterThan(notInTags!);
    const [tagged] = score("#foo-bar", [["[foo] bar", "[foo\uE000bar]"]]);
    const [untagged] = score("#foo-bar", [["foo bar", "foo\uE000bar"]]);
    expect(tagged).toBeGreaterThan(0);
    expect(untagged).toBe(0);
    // a phrase counts once per occurrence; diacritics and case fold as the index folds them
    const [phrase] = score("well-known café", [["a [well-known] [CAFÉ] and a [well known] one", ""]]);
    const [single] = score("well-known café", [["a [well-known] [cafe] and a plain one here", ""]]);
    expect(phrase).toBeGreaterThan(single!);
    // @user terms are weighted 0, as FTS5's bm25 weighs the author column
    expect(score("@someone", [["text", ""]])).toEqual([0]);
  });
});
