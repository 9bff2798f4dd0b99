// The live verdicts (modules/shared/live-visibility.server.ts) with blocks and muted words, on real D1 (decision 016, "Live updates and safety"; issue 31): `author` says
// whether the author and moderation let the reader see the echo, `shown` adds the page's words;
// an echo's page (context null) applies no words, as the thread reads. An edit sends `hide` only
// where `author` holds and a word hides it (hub.server.ts), so a blocked author's edit says nothing.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { postEcho } from "../echo/index.server";
import { addMutedWord, setBlock } from "./index.server";
import { createDb, liveVerdicts, testAppContext, verdictKey, type LivePage } from "../shared/index.server";

const app = () => testAppContext(env);
const user = async (name: string) => (await signup(app(), { userName: name, password: "pass1234" })).user;
const SEARCH: LivePage = { context: "search", scope: "public" };
const THREAD: LivePage = { context: null, scope: "personal" };

describe("liveVerdicts (real D1)", () => {
  it("separates the author's verdict from the words'; an echo's page applies no words", async () => {
    const [reader, author, blocked] = await Promise.all([user("lv_reader"), user("lv_author"), user("lv_blocked")]);
    await addMutedWord(app(), reader._id, { phrase: "zzhide", action: "hide", contexts: ["search"], duration: "forever" });
    await addMutedWord(app(), reader._id, { phrase: "zzwarn", action: "warn", contexts: ["search"], duration: "forever" });
    await setBlock(app(), reader._id, blocked._id, true);
    const hidden = await postEcho(app(), author._id, { content: "has zzhide in it", tags: [] });
    const warned = await postEcho(app(), author._id, { content: "has zzwarn in it", tags: [] });
    const fromBlocked = await postEcho(app(), blocked._id, { content: "plain words", tags: [] });
    const db = createDb(env.DB);
    const verdict = async (echoId: string, page: LivePage) => (await liveVerdicts(db, echoId, [{ viewerId: reader._id, page }])).get(verdictKey(reader._id, page));

    expect(await verdict(hidden._id, SEARCH)).toEqual({ shown: false, author: true, warn: null });
    expect(await verdict(hidden._id, THREAD)).toEqual({ shown: true, author: true, warn: null });
    expect(await verdict(warned._id, SEARCH)).toEqual({ shown: true, author: true, warn: "zzwarn" });
    expect(await verdict(warned._id, THREAD)).toEqual({ shown: true, author: true, warn: null });
    expect(await verdict(fromBlocked._id, SEARCH)).toEqual({ shown: false, author: false, warn: null });
    expect(await verdict(fromBlocked._id, THREAD)).toEqual({ shown: false, author: false, warn: null });
    // the words are the reader's: the author sees their own echo on every page
    const own = await liveVerdicts(db, hidden._id, [{ viewerId: author._id, page: SEARCH }]);
    expect(own.get(verdictKey(author._id, SEARCH))?.shown).toBe(true);
  });
});
