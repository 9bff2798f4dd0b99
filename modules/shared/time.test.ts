import { describe, expect, it } from "vitest";
import { relativeTime } from "./time";
import { isId, newId } from "./ids";

describe("relativeTime (spec §2, with minutes: docs/product-notes.md)", () => {
  const now = Date.UTC(2026, 10, 22, 12, 0, 0);
  it("says 'now' under a minute", () => {
    expect(relativeTime(now, now)).toBe("now");
    expect(relativeTime(now - 59_999, now)).toBe("now");
  });
  it("says Nm under an hour", () => {
    expect(relativeTime(now - 60_000, now)).toBe("1m");
    expect(relativeTime(now - 5 * 60_000, now)).toBe("5m");
    expect(relativeTime(now - 59 * 60_000 - 59_999, now)).toBe("59m");
  });
  it("says Nh under a day", () => {
    expect(relativeTime(now - 60 * 60_000, now)).toBe("1h");
    expect(relativeTime(now - 23 * 3600_000, now)).toBe("23h");
  });
  it("says Nd under a week", () => {
    expect(relativeTime(now - 24 * 3600_000, now)).toBe("1d");
    expect(relativeTime(now - 6 * 86400_000, now)).toBe("6d");
  });
  it("says the short month and day from a week on", () => {
    expect(relativeTime(now - 7 * 86400_000, now)).toBe("Nov 15");
    expect(relativeTime(Date.UTC(2025, 0, 3), now)).toBe("Jan 3");
  });
});

describe("ids", () => {
  it("sort by creation time", () => {
    const a = newId(1_700_000_000_000);
    const b = newId(1_700_000_000_001);
    expect(a < b).toBe(true);
    expect(isId(a) && isId(b)).toBe(true);
  });
  it("reject anything else", () => {
    expect(isId("../etc/passwd")).toBe(false);
    expect(isId(42)).toBe(false);
  });
});
