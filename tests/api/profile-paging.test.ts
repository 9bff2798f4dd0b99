// Profile lists page by cursor like every other list (issue 15): following pagination.nextCursor
// walks the whole list once, and a page number alone still works (spec §7's ?page&limit).
import { beforeAll, describe, expect, it } from "vitest";
import { expectErrorShape, signedUp, type Client } from "./client";

type Json = Record<string, unknown> & { pagination: { page: number; hasMore: boolean; nextCursor: string | null } };

/** Every item of a list, two at a time, by nextCursor. */
async function walk(client: Client, path: string, key: string): Promise<string[]> {
  const ids: string[] = [];
  let query = "limit=2";
  for (let n = 0; n < 20; n++) {
    const res = await client.get(`${path}?${query}`);
    expect(res.status, res.text).toBe(200);
    const json = res.json as Json;
    ids.push(...(json[key] as { _id: string }[]).map((x) => x._id));
    if (!json.pagination.hasMore) {
      expect(json.pagination.nextCursor).toBeNull();
      return ids;
    }
    expect(json.pagination.nextCursor).toEqual(expect.any(String));
    query = `limit=2&page=${json.pagination.page + 1}&cursor=${encodeURIComponent(json.pagination.nextCursor!)}`;
  }
  throw new Error(`${path} did not end`);
}

describe("profile lists by cursor", () => {
  let owner: Awaited<ReturnType<typeof signedUp>>;
  const echos: string[] = [];
  const scrolls: string[] = [];
  const followers: string[] = [];

  beforeAll(async () => {
    owner = await signedUp("pcur");
    for (let i = 0; i < 5; i++) echos.push((await owner.client.post("/api/echo/post", { content: `paging ${i}`, tags: [] })).json.echo._id);
    for (let i = 0; i < 3; i++) {
      scrolls.push((await owner.client.post("/api/scroll/create", { name: `paging ${i}`, type: "curation" })).json.scroll._id);
    }
    for (let i = 0; i < 3; i++) {
      const fan = await signedUp("pfan");
      expect((await fan.client.post(`/api/profile/user/${owner.user._id}/follow`)).status).toBe(200);
      followers.push(fan.user._id);
    }
  });

  it("echos, scrolls and followers: every item once, newest first", async () => {
    const base = `/api/profile/user/${owner.user._id}`;
    expect(await walk(owner.client, `${base}/echos`, "echos")).toEqual([...echos].reverse());
    expect(await walk(owner.client, `${base}/scrolls`, "scrolls")).toEqual([...scrolls].reverse());
    expect(await walk(owner.client, `${base}/followers`, "followers")).toEqual([...followers].reverse());
  });

  it("following: by cursor too", async () => {
    const fan = await signedUp("pfol");
    const followed = [];
    for (let i = 0; i < 3; i++) {
      const other = await signedUp("pfoled");
      expect((await fan.client.post(`/api/profile/user/${other.user._id}/follow`)).status).toBe(200);
      followed.push(other.user._id);
    }
    expect(await walk(fan.client, `/api/profile/user/${fan.user._id}/following`, "following")).toEqual(followed.reverse());
  });

  it("a page number alone still pages", async () => {
    const res = await owner.client.get(`/api/profile/user/${owner.user._id}/scrolls?page=2&limit=2`);
    expect((res.json as { scrolls: { _id: string }[] }).scrolls.map((s) => s._id)).toEqual([scrolls[0]]);
  });

  it.each(["echos", "scrolls", "followers", "following"])("%s: a bad cursor is a 400 'cursor is invalid'", async (list) => {
    for (const cursor of ["garbage", "eyJoIjoxLCJvIjowfQ", "x".repeat(201)]) {
      const res = await owner.client.get(`/api/profile/user/${owner.user._id}/${list}?cursor=${cursor}`);
      expect(res.status, cursor).toBe(400);
      expectErrorShape(res.json);
      expect(res.json.message).toBe("cursor is invalid");
    }
  });
});
