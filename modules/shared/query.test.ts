// The query-string contracts shared by every list (issue 15): one cursor schema, and one rule
// for what a date covers.
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { newId } from "./ids";
import { rangeEnd, rangeStart } from "./dates";
import { CURSOR_INVALID, encodeCursor, ListCursorSchema } from "./pagination";

describe("an end date covers its whole day", () => {
  it("a date without a time: its first and last millisecond (UTC)", () => {
    expect(rangeStart("2026-01-31")).toBe(Date.parse("2026-01-31T00:00:00.000Z"));
    expect(rangeEnd("2026-01-31")).toBe(Date.parse("2026-01-31T23:59:59.999Z"));
  });
  it("a date with a time means that moment", () => {
    expect(rangeEnd("2026-01-31T12:00:00Z")).toBe(Date.parse("2026-01-31T12:00:00Z"));
  });
});

describe("ListCursorSchema: the one cursor of every keyset list", () => {
  const id = newId();
  it.each<Record<string, string | number>>([{ id }, { l: 3, id }, { a: 1_700_000_000_000, id }])("reads what encodeCursor wrote: %o", (key) => {
    expect(v.parse(ListCursorSchema, encodeCursor(key))).toEqual(key);
  });

  it.each([
    ["not base64url JSON", "not a cursor!"],
    ["JSON that is no object", encodeCursor({}).replace(/.*/, btoa("[1]"))],
    ["an id that is no id", encodeCursor({ id: "../etc" })],
    ["a like count that is no whole number", encodeCursor({ l: 1.5, id })],
    ["a negative like count", encodeCursor({ l: -1, id })],
    ["another list's key", encodeCursor({ h: 1, o: 0 })],
    ["too long", encodeCursor({ id, pad: "x".repeat(200) })],
  ])("%s is 'cursor is invalid'", (_, cursor) => {
    const result = v.safeParse(ListCursorSchema, cursor);
    expect(result.success).toBe(false);
    expect(result.issues?.[0]?.message).toBe(CURSOR_INVALID);
  });
});
