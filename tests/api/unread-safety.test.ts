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

  // (migration 0038) the list shows a like group whose newest actor is muted, led by its newest
  // visible actor: the bell counts it too
  it("counts a group the list shows led by another when its newest actor is hidden", async () => {
    const [me, cat, ann, ben] = await Promise.all([signedUp("uh"), signedUp("ui"), signedUp("uj"), signedUp("uk")]);
    const mine = await me.client.post("/api/echo/post", { content: "liked by three", tags: [] });
    expect(mine.status).toBe(201);
    const id = mine.json.echo._id;
    expect((await cat.client.post(`/api/echo/like/${id}`)).status).toBe(200);
    expect((await ann.client.post(`/api/echo/like/${id}`)).status).toBe(200);
    // ann muted after her like; ben's like leads the group, then is taken back: ann leads it again
    expect((await me.client.post(`/api/profile/user/${ann.user._id}/mute`, { duration: "forever" })).status).toBe(200);
    expect((await ben.client.post(`/api/echo/like/${id}`)).status).toBe(200);
    expect((await ben.client.delete(`/api/echo/like/${id}`)).status).toBe(200);
    const list = await me.client.get("/api/notifications");
    expect(list.json.notifications.map((n: { actor: { _id: string }; actorCount: number; unread: boolean }) => [n.actor._id, n.actorCount, n.unread])).toEqual([[cat.user._id, 1, true]]);
    expect(list.json.unreadCount).toBe(1);
    const bell = await me.client.get("/api/notifications/unread");
    expect(bell.json).toEqual({ unreadCount: 1 });
  });
});
