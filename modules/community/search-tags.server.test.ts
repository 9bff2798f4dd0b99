import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { batch, sql, testAppContext } from "../shared/index.server";
import { searchTags, trendingTags } from "./community.server";

const app = () => testAppContext(env);

describe("searchTags (the /search page's Tags tab) against real D1 and KV", () => {
  it("finds a tag outside the trending list by its name or its start, the exact name first", async () => {
    const now = Date.now();
    // 105 trending tags fill the cached top 100; "quiet" tags were never used recently
    const trending = Array.from({ length: 105 }, (_, i) => [`trend${String(i).padStart(3, "0")}`, 1000 - i]);
    const quiet = ["quietly", "quiet", "quiet-zone", "quieter"];
    await batch(app().db, [
      sql`INSERT INTO tags (name, echo_count, recent_count, created_at)
        SELECT value ->> 0, value ->> 1, value ->> 1, ${now} FROM json_each(${JSON.stringify(trending)})`,
      sql`INSERT INTO tags (name, echo_count, recent_count, created_at)
        SELECT value, 1, 0, ${now} FROM json_each(${JSON.stringify(quiet)})`,
    ]);
    const top = (await trendingTags(app(), 100)).map((t) => t.name);
    expect(top).toHaveLength(100);
    expect(top.some((n) => n.startsWith("quiet"))).toBe(false);

    const names = async (term: string, limit = 20) => (await searchTags(app(), term, limit)).map((t) => t.name);
    // the exact name first, then the others by name
    expect(await names("quiet")).toEqual(["quiet", "quiet-zone", "quieter", "quietly"]);
    expect(await names("quiete")).toEqual(["quieter"]);
    // trending tags holding the term come before other tags that start with it
    expect(await names("trend09", 3)).toEqual(["trend090", "trend091", "trend092"]);
    expect(await names("rend09")).toHaveLength(10); // trending ones match anywhere in the name
    expect(await names("trend104")).toEqual(["trend104"]); // not trending (101st+), found by its name
    expect(await names("nothing-like-it")).toEqual([]);
    expect(await names("")).toEqual([]);
    // a term past every name's last character finds nothing, and never an error
    expect(await names("\u{10FFFF}")).toEqual([]);
  });
});
