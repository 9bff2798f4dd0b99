// `npm start` fires the configs' crons itself (scripts/cron.mjs): wrangler's local runtime never
// fires `[triggers] crons`, and popular echos stayed empty until someone ran `npm run rank`.
// This file starts its own short-lived server (the shared one fires no cron on its own, so no other
// test sees a pass it did not ask for) with LOCAL_CRON_EVERY_MS, and never calls the trigger: the
// popular list fills, and follows later likes, by the scheduled passes alone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error -- a plain .mjs script shared by the npm scripts, no type declarations
import { startServer } from "../../scripts/server.mjs";
import { Client, uniqueName } from "./client";

type Server = { baseUrl: string; log: () => string; stop: () => Promise<void> };
let server: Server;
const EVERY_MS = 2000;

beforeAll(async () => {
  server = await startServer({ vars: { AUTH_IP_LIMIT_PER_MINUTE: "100000" }, crons: EVERY_MS });
}, 600_000);
afterAll(async () => {
  await server?.stop();
});

async function signedUp(prefix: string) {
  const client = new Client(server.baseUrl);
  const res = await client.post("/api/auth/signup", { userName: uniqueName(prefix), password: "pass1234" });
  expect(res.status).toBe(201);
  return client;
}

/** Polls the top of today's most-liked list until `done` holds (or the deadline passes). */
async function waitForTop(client: Client, done: (top: { _id: string; likes: number } | undefined) => boolean) {
  const deadline = Date.now() + 10 * EVERY_MS + 10_000;
  for (;;) {
    const res = await client.get("/api/community/echos/popular?period=today&sort=likes&limit=1");
    expect(res.status).toBe(200);
    if (done(res.json[0])) return res.json[0];
    if (Date.now() > deadline) throw new Error(`no scheduled pass ranked the echo; top: ${JSON.stringify(res.json[0])}\n${server.log().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe("npm start's local cron", () => {
  it("ranks liked echos on its own schedule: popular echos fill with no manual trigger, and follow new likes", async () => {
    const author = await signedUp("lc");
    const echo = (await author.post("/api/echo/post", { content: "ranked by the schedule", tags: [] })).json.echo;
    const fans = await Promise.all([0, 1, 2, 3, 4].map((i) => signedUp(`lf${i}`)));
    for (const fan of fans.slice(0, 3)) expect((await fan.post(`/api/echo/like/${echo._id}`)).status).toBe(200);

    expect(await waitForTop(author, (top) => top?._id === echo._id && top?.likes === 3)).toMatchObject({ _id: echo._id, likes: 3 });
    // a later pass, again by the schedule alone, sees the later likes
    for (const fan of fans.slice(3)) expect((await fan.post(`/api/echo/like/${echo._id}`)).status).toBe(200);
    expect(await waitForTop(author, (top) => top?.likes === 5)).toMatchObject({ _id: echo._id, likes: 5 });

    // the passes went through the scheduled-event path, on the community vertical's real handler
    expect(server.log()).toMatch(/\[local cron\] \*\/5 \* \* \* \* at \S+: 200 ok/);
  }, 600_000);
});
