// A notification group whose newest actor the recipient does not see (docs/spec-audit.md): it
// used to disappear whole, the others' likes with it. Now it shows its newest visible actor and
// counts the hidden ones it stepped over out; a group whose newest actors are all hidden stays
// out. The block and mute are written as their writer writes them (the profile module, which this
// module may not import): the triggers keep the recipient's hidden set.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signup } from "../auth/index.server";
import { HIDDEN_ACTOR_WINDOW, listNotifications } from "../notification/index.server";
import { batch, createDb, instrumentD1, sql, testAppContext, type D1Stats } from "../shared/index.server";
import { postEcho, setLike } from "./echo.server";

describe("a like group led by someone the recipient blocks", () => {
  it("shows the newest visible actor and the count without the hidden; all hidden, it stays out; within the budget", async () => {
    const app = testAppContext(env);
    const person = async (name: string) => (await signup(app, { userName: name, password: "pass1234" })).user._id;
    const me = await person("nh_me");
    const [ann, ben, cat, dan] = [await person("nh_ann"), await person("nh_ben"), await person("nh_cat"), await person("nh_dan")];
    const echo = await postEcho(app, me, { content: "liked by four", tags: [] });
    const lonely = await postEcho(app, me, { content: "liked by dan only", tags: [] });
    for (const who of [ann, ben, cat, dan]) await setLike(app, who, echo._id, true);
    await setLike(app, dan, lonely._id, true);
    const group = async () => (await listNotifications(app, me)).notifications.filter((n) => n.kind === "like");
    expect((await group()).map((n) => [n.echo?._id, n.actor.userName, n.actorCount])).toEqual([
      [lonely._id, "nh_dan", 1],
      [echo._id, "nh_dan", 4],
    ]);

    // I block dan, the newest: the group stays, led by cat, three actors; dan's only like leaves
    await batch(createDb(env.DB), [sql`INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (${me}, ${dan}, 1)`]);
    expect((await group()).map((n) => [n.echo?._id, n.actor.userName, n.actorCount])).toEqual([[echo._id, "nh_cat", 3]]);
    // and mute cat: ben leads, two
    await batch(createDb(env.DB), [sql`INSERT INTO mutes (muter_id, muted_id, created_at) VALUES (${me}, ${cat}, 1)`]);
    expect((await group()).map((n) => [n.actor.userName, n.actorCount])).toEqual([["nh_ben", 2]]);
    // a group whose newest HIDDEN_ACTOR_WINDOW actors are all hidden stays out (the window's bound)
    expect(HIDDEN_ACTOR_WINDOW).toBe(3);
    await batch(createDb(env.DB), [sql`INSERT INTO mutes (muter_id, muted_id, created_at) VALUES (${me}, ${ben}, 1)`]);
    expect(await group()).toEqual([]);
    // others see their own groups unchanged (the test is the recipient's)
    const stats: D1Stats = { roundTrips: 0, rowsRead: 0, rowsWritten: 0 };
    await listNotifications(testAppContext(env, { db: createDb(instrumentD1(env.DB, stats)) }), me);
    // (a short page asks where its window of groups ends: a second round trip, NOTICE_WINDOW)
    expect(stats.roundTrips).toBeLessThanOrEqual(2);
    expect(stats.rowsRead).toBeLessThanOrEqual(200);
  });
});
