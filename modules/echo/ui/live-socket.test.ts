import { describe, expect, it } from "vitest";
import { backoffMs, pollPath } from "./live-socket";

describe("live client", () => {
  it("backs off exponentially up to 30 s, jittered to between half and all of the step", () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffMs(n, () => 1))).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(backoffMs(9, () => 1)).toBe(30_000);
    expect(backoffMs(3, () => 0)).toBe(2000);
    for (let i = 0; i < 100; i++) {
      const wait = backoffMs(4);
      expect(wait).toBeGreaterThanOrEqual(4000);
      expect(wait).toBeLessThanOrEqual(8000);
    }
  });

  it("polls the first page of the same feed the socket follows", () => {
    expect(pollPath("all=1")).toBe("/api/echo/all?limit=20");
    expect(pollPath("tag=caf%C3%A9")).toBe("/api/echo/tag/caf%C3%A9?limit=20");
    expect(pollPath("scroll=01abc")).toBe("/api/scroll/01abc/echos?limit=20");
    expect(pollPath("following=1")).toBe("/api/echo/following?limit=20");
  });
});
