// Shown groups kept on write over HTTP (issue 32, decision 015 "Shown groups kept on write"): the
// mute's refresh runs through the server's own queue. 30 newest like groups by an account the
// viewer mutes after its likes, 3 older ones by another: once the refresh ran, the first page shows
// the 3 (main: an empty page with a cursor, its window of 27 all hidden); the unmute's refresh
// brings the 30 back. Each page within budget, nothing hidden shown meanwhile.
import { describe, expect, it } from "vitest";
import { d1Cost, signedUp, untilPage } from "./client";

type Page = { notifications: { actor: { _id: string } }[]; pagination: { nextCursor: string | null } };

describe("notifications of a viewer who mutes the actor of their newest 30 groups", () => {
  it("the first page shows the visible groups once the mute's refresh ran; the unmute's brings the rest back", { timeout: 120_000 }, async () => {
    const [me, muted, seen] = await Promise.all([signedUp("nsa"), signedUp("nsb"), signedUp("nsc")]);
    const echos: string[] = [];
    for (let i = 0; i < 33; i++) {
      const res = await me.client.post("/api/echo/post", { content: `mine ${i}`, tags: [] });
      expect(res.status).toBe(201);
      echos.push(res.json.echo._id);
    }
    for (const id of echos.slice(0, 3)) expect((await seen.client.post(`/api/echo/like/${id}`)).status).toBe(200);
    for (const id of echos.slice(3)) expect((await muted.client.post(`/api/echo/like/${id}`)).status).toBe(200);
    expect((await me.client.post(`/api/profile/user/${muted.user._id}/mute`, { duration: "forever" })).status).toBe(200);

    const actors = (page: Page) => page.notifications.map((n) => n.actor._id);
    const first = await untilPage(me.client, "/api/notifications", (page) => actors(page as Page).length === 3, 30_000);
    expect(actors(first.json as Page)).toEqual([seen.user._id, seen.user._id, seen.user._id]);
    expect((first.json as Page).pagination.nextCursor).toBeNull();
    const cost = d1Cost(first);
    expect(cost.roundTrips).toBeLessThanOrEqual(2);
    expect(cost.rows).toBeLessThanOrEqual(200);

    expect((await me.client.delete(`/api/profile/user/${muted.user._id}/mute`)).status).toBe(200);
    const back = await untilPage(me.client, "/api/notifications", (page) => actors(page as Page)[0] === muted.user._id, 30_000);
    expect(actors(back.json as Page)).toEqual(Array(20).fill(muted.user._id));
    expect(d1Cost(back).rows).toBeLessThanOrEqual(200);
  });
});
