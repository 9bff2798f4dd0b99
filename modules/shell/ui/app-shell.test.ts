import { describe, expect, it } from "vitest";
import { isActivePath } from "./app-shell";

describe("the shell's links are marked active as NavLink marks them", () => {
  it("the path itself, any path below it, case-insensitive; `end` only the path; / only itself", () => {
    expect(isActivePath("/community", "/community", false)).toBe(true);
    expect(isActivePath("/community/tags", "/community", false)).toBe(true);
    expect(isActivePath("/Community", "/community", false)).toBe(true);
    expect(isActivePath("/communityx", "/community", false)).toBe(false);
    expect(isActivePath("/scrolls/feeds", "/scrolls", true)).toBe(false);
    expect(isActivePath("/scrolls", "/scrolls", true)).toBe(true);
    expect(isActivePath("/scrolls/feeds", "/scrolls/feeds", false)).toBe(true);
    expect(isActivePath("/", "/", true)).toBe(true);
    expect(isActivePath("/new", "/", true)).toBe(false);
    expect(isActivePath("/new", "/", false)).toBe(false);
  });
});
