// Every scroll object, wherever the API returns it, keeps the same promises (product decisions):
// feed rule tags are `{ _id, name }`, and the viewer's follow state (`isFollowing`, `savedBy`) is there.
import { describe, expect, it } from "vitest";
import { signedUp } from "./client";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const tagObjects = (...names: string[]) => names.map((name) => ({ _id: name, name }));

describe("scroll objects everywhere", () => {
  it("feed rule tags are { _id, name } on create, get, edit, /scroll/all, profile lists and community lists", async () => {
    const { client: owner, user } = await signedUp("tg");
    const { client: other } = await signedUp("th");
    const created = await owner.post("/api/scroll/create", {
      name: "tag shape",
      type: "feed",
      feedConfig: { includedTags: ["#Alpha", "beta"], excludedTags: ["gamma"] },
    });
    expect(created.status).toBe(201);
    const id = created.json.scroll._id as string;
    const rule = (s: Json) => ({ includedTags: s.feedConfig.includedTags, excludedTags: s.feedConfig.excludedTags });
    const expected = { includedTags: tagObjects("alpha", "beta"), excludedTags: tagObjects("gamma") };
    expect(rule(created.json.scroll)).toEqual(expected);
    expect(rule((await owner.get(`/api/scroll/${id}`)).json.scroll)).toEqual(expected);
    expect(rule((await other.get(`/api/scroll/${id}`)).json.scroll)).toEqual(expected);
    const find = (list: Json[]) => list.find((s) => s._id === id)!;
    expect(rule(find((await owner.get("/api/scroll/all")).json.scrolls))).toEqual(expected);
    expect(rule(find((await other.get(`/api/profile/user/${user._id}/scrolls?type=created`)).json.scrolls))).toEqual(expected);
    expect(rule(find((await other.get("/api/community/scrolls/public/feed?limit=100")).json))).toEqual(expected);
    const followed = await other.post(`/api/scroll/${id}/follow`);
    expect(rule(followed.json.scroll)).toEqual(expected);
    const edited = await owner.request("PATCH", `/api/scroll/${id}`, { feedConfig: { includedTags: ["delta"] } });
    expect(rule(edited.json.scroll)).toEqual({ includedTags: tagObjects("delta"), excludedTags: [] });
  });

  it("community lists carry the viewer's follow state, so a follow there can be undone there", async () => {
    const { client: owner } = await signedUp("vo");
    const { client: follower, user: fu } = await signedUp("vf");
    const feed = (await owner.post("/api/scroll/create", { name: "followed feed", type: "feed" })).json.scroll;
    const curation = (await owner.post("/api/scroll/create", { name: "followed curation", type: "curation" })).json.scroll;
    const listed = async (type: string, id: string) =>
      ((await follower.get(`/api/community/scrolls/public/${type}?limit=100`)).json as Json[]).find((s) => s._id === id)!;

    expect(await listed("feed", feed._id)).toMatchObject({ isFollowing: false, savedBy: [] });
    expect((await follower.post(`/api/scroll/${feed._id}/follow`)).status).toBe(200);
    expect((await follower.post(`/api/scroll/${curation._id}/follow`)).status).toBe(200);
    expect(await listed("feed", feed._id)).toMatchObject({ isFollowing: true, savedBy: [fu._id], followersCount: 1 });
    expect(await listed("curation", curation._id)).toMatchObject({ isFollowing: true, savedBy: [fu._id], followersCount: 1 });
    // another viewer of the same list sees their own state, not the follower's
    const seenByOwner = ((await owner.get("/api/community/scrolls/public/feed?limit=100")).json as Json[]).find((s) => s._id === feed._id)!;
    expect(seenByOwner).toMatchObject({ isFollowing: false, savedBy: [], followersCount: 1 });

    expect((await follower.delete(`/api/scroll/${feed._id}/follow`)).json.scroll).toMatchObject({ isFollowing: false, followersCount: 0 });
    expect(await listed("feed", feed._id)).toMatchObject({ isFollowing: false, savedBy: [], followersCount: 0 });
  });
});
