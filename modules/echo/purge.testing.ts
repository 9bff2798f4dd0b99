// Tests' deletion of an echo as a reader sees it a moment later: the request (which only marks it,
// decision 032 "One echo") and then its purge chain run to the end, the Following timelines'
// share included, with the queue a plain array. For module tests whose subject is what a deleted
// echo leaves behind (threads, counts, search), not the steps (modules/echo/delete.server.test.ts).
import { env } from "cloudflare:workers";
import { createDb, testAppContext, type AppContext, type Change } from "../shared/index.server";
import { consumeEchoPurges, deleteEcho as markDeleted } from "./delete.server";
import { consumeTimelineChanges } from "./timeline.server";

/** An app whose queue is `sent`. */
export function queuedApp(sent: Change[], base: Env = env): AppContext {
  const queue = { sendBatch: async (messages: { body: Change }[]) => void sent.push(...messages.map((m) => m.body)) };
  return testAppContext({ ...base, FEED_EVENTS: queue } as unknown as Env);
}

/** Run the purge and timeline consumers over what is queued until nothing of theirs is left; the steps. */
export async function drainPurges(sent: Change[]): Promise<number> {
  let steps = 0;
  while (sent.some((c) => c.type === "purgeEcho" || c.type === "unfanout")) {
    const changes = sent.splice(0, sent.length);
    await consumeEchoPurges(queuedApp(sent), createDb(env.DB), changes);
    await consumeTimelineChanges(queuedApp(sent), createDb(env.DB), changes);
    steps++;
  }
  return steps;
}

/** Delete as `viewerId` (throws as the request does), then purge to the end. */
export async function deleteEcho(app: AppContext, viewerId: string, id: string): Promise<void> {
  const sent: Change[] = [];
  await markDeleted({ ...app, ...queuedApp(sent, app.env), db: app.db }, viewerId, id);
  await drainPurges(sent);
}
