// The bell's unread count and safety over HTTP (issue 32, migration 0032): a mention whose echo a
// Notifications hide word matches, and a like from someone the recipient mutes, are neither listed
// nor counted; the others are, and the count stays the session check's one read.
import { describe, expect, it } from "vitest";
import { signedUp } from "./client";

const uniq = (p: string) => p + Date.now().toString(36) + Math.floor(Math.random() * 1e6).toString(36);

describe("GET /api/notifications/unread honours mutes and muted words", () => {
  it("counts only what GET /api/notifications lists", async () => {
    const [me, muted, other] = await Promise.all([signedUp("ur"), signedUp("us"), signedUp("ut")]);
    const word = uniq("hush");
    expect((await me.client.post("/api/profile/me/muted-words", { phrase: word, action: "hide", contexts: ["notifications"], duration: "forever" })).status).toBe(200);
    expect((await me.client.post(`/api/profile/user/${muted.user._id}/mute`, { duration: "forever" })).status).toBe(200);
    const mine = await me.client.post("/api/echo/post", { content: "mine", tags: [] });
    expect(mine.status).toBe(201);
    expect((await muted.client.post(`/api/echo/like/${mine.json.echo._id}`)).status).toBe(200);
    expect((await other.client.post("/api/echo/post", { content: `@${me.user.userName} ${word} here`, tags: [] })).status).toBe(201);
    expect((await me.client.get("/api/notifications/unread")).json).toEqual({ unreadCount: 0 });
    expect((await other.client.post("/api/echo/post", { content: `@${me.user.userName} plain`, tags: [] })).status).toBe(201);
    const res = await me.client.get("/api/notifications/unread");
    expect(res.json).toEqual({ unreadCount: 1 });
    const list = await me.client.get("/api/notifications");
    expect(list.json.unreadCount).toBe(1);
    expect(list.json.notifications.map((n: { actor: { _id: string } }) => n.actor._id)).toEqual([other.user._id]);
  });
});
