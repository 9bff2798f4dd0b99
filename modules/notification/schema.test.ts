import { describe, expect, it } from "vitest";
import { bellLabel, excerpt, notificationText, shownUnread, type Notification } from "./schema";

const base: Notification = {
  _id: "like:1",
  kind: "like",
  actor: { _id: "u1", userName: "alice" },
  actorCount: 1,
  echo: { _id: "e1", excerpt: "Sunrise" },
  scroll: null,
  unread: true,
  updatedAt: "2026-01-01T00:00:00.000Z",
};

describe("notification text", () => {
  it("names the newest actor and counts the others", () => {
    expect(notificationText(base)).toBe("alice liked your echo “Sunrise”");
    expect(notificationText({ ...base, actorCount: 2 })).toBe("alice and 1 other liked your echo “Sunrise”");
    expect(notificationText({ ...base, actorCount: 13 })).toBe("alice and 12 others liked your echo “Sunrise”");
  });

  it("says each kind", () => {
    expect(notificationText({ ...base, kind: "follow", echo: null, actorCount: 3 })).toBe("alice and 2 others followed you");
    expect(notificationText({ ...base, kind: "scroll_follow", echo: null, scroll: { _id: "s", name: "Bay" } })).toBe("alice followed your scroll “Bay”");
    expect(notificationText({ ...base, kind: "mention" })).toBe("alice mentioned you in “Sunrise”");
    expect(notificationText({ ...base, kind: "reply" })).toBe("alice replied “Sunrise”");
  });

  it("cuts an echo to 60 characters without splitting an emoji", () => {
    expect(excerpt("short")).toBe("short");
    expect(excerpt("x".repeat(60))).toBe("x".repeat(60));
    expect(excerpt(`${"😀".repeat(61)}`)).toBe(`${"😀".repeat(60)}…`);
    expect(excerpt(`${"a ".repeat(31)}`)).toBe(`${"a ".repeat(30).trimEnd()}…`);
  });

  it("the bell says the count, 99+ past 99", () => {
    expect(bellLabel(0)).toBe("Notifications");
    expect(bellLabel(3)).toBe("Notifications, 3 unread");
    expect(bellLabel(99)).toBe("Notifications, 99 unread");
    expect(bellLabel(100)).toBe("Notifications, 99+ unread");
    expect(shownUnread(5000)).toBe("99+");
  });
});
