// The text rules inside workerd (the runtime the server counts in): Intl.Segmenter is there, and
// the same functions drive the client's counters.
import { describe, expect, it } from "vitest";
import { charCount } from "./char-count";
import { clampChars, illFormedField, isolate, isWellFormedText } from "./text";
import { maxChars } from "./validation";
import * as v from "valibot";

const FAMILY = "👨‍👩‍👧‍👦";

describe("charCount: grapheme clusters", () => {
  it("counts what a person sees", () => {
    expect(charCount("")).toBe(0);
    expect(charCount("abc")).toBe(3);
    expect(charCount("a\r\nb")).toBe(3);
    expect(charCount(FAMILY)).toBe(1);
    expect(charCount("🏴󠁧󠁢󠁳󠁣󠁴󠁿🇫🇷😀")).toBe(3);
    expect(charCount("e\u0301")).toBe(1);
    expect(charCount("𐌰".repeat(30))).toBe(30);
  });
  it("clampChars keeps whole characters", () => {
    expect(clampChars(FAMILY.repeat(3), 2)).toBe(FAMILY.repeat(2));
    expect(clampChars("😀😀", 1)).toBe("😀");
    expect(clampChars("short", 10)).toBe("short");
  });
  it("maxChars also bounds the storage of one long cluster", () => {
    const limit = v.pipe(v.string(), maxChars(2, "too long"));
    expect(v.safeParse(limit, FAMILY.repeat(2)).success).toBe(true);
    expect(v.safeParse(limit, FAMILY.repeat(3)).success).toBe(false);
    expect(v.safeParse(limit, "e" + "\u0301".repeat(40)).success).toBe(false);
  });
});

describe("well-formed text", () => {
  it("refuses unpaired surrogates and control characters; keeps tab, newlines and bidi marks", () => {
    for (const bad of ["\ud800", "a\udfffb", "\udc00\ud800", "\u0000", "\u001b", "\u007f", "\u0085", "\u009f"]) expect(isWellFormedText(bad), JSON.stringify(bad)).toBe(false);
    for (const ok of ["", "a\tb\nc\r\n", "😀", "\u202eevil\u202c", "\u2066x\u2069", "\u00a0é"]) expect(isWellFormedText(ok), JSON.stringify(ok)).toBe(true);
  });
  it("names the first ill-formed field of a JSON value, keys included", () => {
    expect(illFormedField({ a: "ok", b: ["x", { c: "\ud800" }] })).toBe("b.c");
    expect(illFormedField({ feedConfig: { includedTags: ["ok", "\u0000"] } })).toBe("feedConfig.includedTags");
    expect(illFormedField({ "\ud800": 1 })).toBe("Request body (a key)");
    expect(illFormedField({ a: 1, b: [true, null, "fine"] })).toBeNull();
    // nested far deeper than the call stack allows recursion
    let deep: unknown = "\ud800";
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { a: deep };
    expect(illFormedField(deep)).toMatch(/^a(\.a)*$/);
  });
  it("isolate wraps plain-string user text in FSI … PDI", () => {
    expect(isolate("\u202eevil")).toBe("\u2068\u202eevil\u2069");
  });
});
