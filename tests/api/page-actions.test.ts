// The settings and profile forms post to their pages' actions (issue 30: one way to mutate), as a
// hydrated fetcher does (`<page>.data`, form-encoded). Bad input is refused with the error the
// form shows, and changes nothing.
import { describe, expect, it } from "vitest";
import { BASE_URL, Client, signedUp } from "./client";

const origin = { Origin: new URL(BASE_URL).origin, "Content-Type": "application/x-www-form-urlencoded" };
const postForm = (client: Client, path: string, fields: Record<string, string>) => client.post(path, new URLSearchParams(fields).toString(), origin);

describe("page actions", () => {
  it("settings: an unknown intent and a wrong current password are 400s with their message; the password stays", async () => {
    const { client, user } = await signedUp("pa");
    const unknown = await postForm(client, "/settings.data", { intent: "nope" });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain("Unknown settings action");
    const wrong = await postForm(client, "/settings.data", { intent: "password", currentPassword: "not-mine", newPassword: "brand-new" });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain("Current password is incorrect");
    expect((await new Client().post("/api/auth/login", { userName: user.userName, password: "pass1234" })).status).toBe(200);
    expect((await new Client().post("/api/auth/login", { userName: user.userName, password: "brand-new" })).status).toBe(401);

    // the right one changes it
    const changed = await postForm(client, "/settings.data", { intent: "password", currentPassword: "pass1234", newPassword: "brand-new" });
    expect(changed.status).toBe(200);
    expect((await new Client().post("/api/auth/login", { userName: user.userName, password: "brand-new" })).status).toBe(200);
  });

  it("settings: muted words are added (every repeated context) and removed through the page's action; bad input changes nothing", async () => {
    const { client } = await signedUp("pm");
    const form = (pairs: [string, string][]) => client.post("/settings.data", new URLSearchParams(pairs).toString(), origin);
    const words = async () => (await client.get("/api/profile/me/muted-words")).json.words as { _id: string; phrase: string; action: string; contexts: string[] }[];
    // an empty phrase, an unknown place, an unknown duration: 400s naming the field, nothing muted
    const empty = await form([["intent", "mute-word"], ["phrase", "  "]]);
    expect(empty.status).toBe(400);
    expect(empty.text).toContain("phrase is required");
    const place = await form([["intent", "mute-word"], ["phrase", "spoiler"], ["contexts", "home"], ["contexts", "nowhere"]]);
    expect(place.status).toBe(400);
    expect(place.text).toContain("contexts must be among");
    expect((await form([["intent", "mute-word"], ["phrase", "spoiler"], ["duration", "ever"]])).status).toBe(400);
    expect(await words()).toEqual([]);

    const added = await form([["intent", "mute-word"], ["phrase", "spoiler"], ["action", "warn"], ["contexts", "search"], ["contexts", "tags"], ["duration", "forever"]]);
    expect(added.status).toBe(200);
    const [word] = await words();
    expect(word).toMatchObject({ phrase: "spoiler", action: "warn" });
    expect([...word!.contexts].sort()).toEqual(["search", "tags"]);
    expect(added.text).toContain(word!._id);

    const removed = await form([["intent", "unmute-word"], ["wordId", word!._id]]);
    expect(removed.status).toBe(200);
    expect(await words()).toEqual([]);
  });

  it("scrolls: the create and edit forms post JSON to their pages' actions; bad input and another's scroll change nothing", async () => {
    const { client } = await signedUp("ps");
    const { client: other } = await signedUp("pt");
    const json = { Origin: new URL(BASE_URL).origin, "Content-Type": "application/json" };
    const feedConfig = { includedTags: ["pagesaction"], sortBy: "newestFirst" };
    const noName = await client.post("/scroll/new.data", JSON.stringify({ name: " ", type: "feed", feedConfig }), json);
    expect(noName.status).toBe(400);
    expect(noName.text).toMatch(/name/i);
    expect((await client.get("/api/scroll/all")).json.scrolls).toEqual([]);

    const created = await client.post("/scroll/new.data", JSON.stringify({ name: "Action feed", description: "", type: "feed", isPrivate: false, feedConfig }), json);
    expect(created.status).toBe(200);
    const id = /[0-9a-z]{26}/.exec(created.text)?.[0];
    const scroll = (await client.get(`/api/scroll/${id}`)).json.scroll;
    expect(scroll).toMatchObject({ name: "Action feed", type: "feed" });

    // another account's edit is refused and changes nothing; the creator's is saved
    expect((await other.post(`/scroll/${id}/edit.data`, JSON.stringify({ name: "Taken" }), json)).status).toBe(403);
    const tooMany = await client.post(`/scroll/${id}/edit.data`, JSON.stringify({ feedConfig: { ...feedConfig, includedTags: Array.from({ length: 50 }, (_, i) => `t${i}`) } }), json);
    expect(tooMany.status).toBe(400);
    expect((await client.get(`/api/scroll/${id}`)).json.scroll.name).toBe("Action feed");
    expect((await client.post(`/scroll/${id}/edit.data`, JSON.stringify({ name: "Renamed by action" }), json)).status).toBe(200);
    expect((await client.get(`/api/scroll/${id}`)).json.scroll.name).toBe("Renamed by action");
  });

  it("profile: a bio over its limit is a 400 naming it; the bio stays", async () => {
    const { client } = await signedUp("pb");
    expect((await postForm(client, "/profile.data", { intent: "profile", bio: "kept" })).status).toBe(200);
    const long = await postForm(client, "/profile.data", { intent: "profile", bio: "x".repeat(1000) });
    expect(long.status).toBe(400);
    expect(long.text).toMatch(/bio must be at most \d+ characters/);
    expect((await postForm(client, "/profile.data", { intent: "nope" })).status).toBe(400);
    expect((await client.get("/api/profile/me")).json.bio).toBe("kept");
  });
});
