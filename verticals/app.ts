// The entry of every vertical Worker (verticals/<name>/wrangler.toml): the request context
// (D1 with its round-trip count, KV, the router's CSP nonce) → this vertical's React Router build.
// The hardening every request needs ran once, in the router Worker (worker/router.ts).
import { createRequestHandler, RouterContextProvider } from "react-router";
import { carriesSessionCookie, consumeAccountPurges } from "../modules/auth/index.server";
import {
  appContext,
  bookmarkCookie,
  configureRequestDb,
  createDb,
  d1Timing,
  failingD1,
  failingKV,
  instrumentD1,
  readBookmark,
  sessionStart,
  STREAMED_D1_HEADER,
  type AppContext,
  type D1Stats,
} from "../modules/shared/index.server";
import { NONCE_HEADER } from "../modules/verticals/index";
import { consumeChanges } from "../modules/scroll/index.server";
import { consumeEchoPurges, consumeTimelineChanges } from "../modules/echo/index.server";
import { consumeNoticeRefreshes } from "../modules/notification/index.server";
import type { Change } from "../modules/shared/index.server";
import { answerOptions } from "./options";
import { runScheduled } from "./scheduled";

// The live object class (decision 016): the echos Worker hosts it (its wrangler.toml); other
// verticals reach it through a binding naming that Worker.
export { LiveHub } from "../modules/live/index.server";

const loadBuild = () => import("virtual:react-router/server-build");
/**
 * Given a function, React Router loads the build and derives its route tables and static handler
 * again on every request, which `npm run dev` needs for hot reload. A deployed build never changes,
 * so outside dev the handler is made once per isolate from the loaded build (profiled: about a
 * tenth of home's server time went to that per-request setup).
 */
let builtHandler: Promise<ReturnType<typeof createRequestHandler>> | undefined;
const handleRequest: ReturnType<typeof createRequestHandler> = import.meta.env.DEV
  ? createRequestHandler(loadBuild, import.meta.env.MODE)
  : async (request, context) => {
      if (!builtHandler) {
        builtHandler = loadBuild().then((build) => createRequestHandler(build, import.meta.env.MODE));
        builtHandler.catch(() => (builtHandler = undefined));
      }
      return (await builtHandler)(request, context);
    };

/**
 * Hands the browser the session's bookmark when it moved (streamed pages finish their loaders
 * before the shell is sent, so it is final). Not on answers a shared cache may keep (`public`):
 * a bookmark is this browser's, and a stale one would pin others to it.
 */
async function withBookmark(response: Response, latest: string | null, sent: string | null, secure: boolean): Promise<Response> {
  // an accepted WebSocket keeps its answer as it is (its headers are immutable)
  if (response.webSocket || !latest || latest === sent || /\bpublic\b/.test(response.headers.get("Cache-Control") ?? "")) return response;
  const cookie = await bookmarkCookie(latest, secure);
  try {
    response.headers.append("Set-Cookie", cookie);
    return response;
  } catch {
    // a Response.redirect() or fetched answer has immutable headers: copy it
    const headers = new Headers(response.headers);
    headers.append("Set-Cookie", cookie);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

export default {
  async fetch(request, env, ctx) {
    // the asset layer answered every file this vertical has before the Worker ran: what is left
    // under /assets/ is another build's file (a page of an older deploy, say), not a page
    const url = new URL(request.url);
    if (url.pathname.startsWith("/assets/")) return new Response("Not found", { status: 404 });
    // what a path answers, without running it: no D1 session, loader or action (verticals/options.ts)
    if (request.method === "OPTIONS") return answerOptions(await loadBuild(), url);
    const stats: D1Stats = { roundTrips: 0, rowsRead: 0, rowsWritten: 0 };
    const fault = String(env.FAULT_INJECTION) === "1" ? request.headers.get("X-Echo-Fault") : null;
    const secure = url.protocol === "https:";
    // every query of the request runs in one D1 session (read replication, decision 017)
    const bookmark = await readBookmark(request, secure);
    const signedIn = await carriesSessionCookie({ secure }, request);
    const session = env.DB.withSession(sessionStart({ method: request.method, pathname: url.pathname, bookmark, signedIn }));
    const app: AppContext = {
      // "stream": this request's change-stream messages are lost (the feed index's repair test)
      env: fault === "kv" ? { ...env, KV: failingKV() } : fault === "stream" ? { ...env, FEED_EVENTS: undefined } : env,
      ctx,
      db: createDb(instrumentD1(fault === "d1" ? failingD1(session) : session, stats)),
      // the router sets it on every request; the answer's CSP names the same value
      nonce: request.headers.get(NONCE_HEADER) ?? "",
      secure,
      ip: request.headers.get("CF-Connecting-IP") ?? "127.0.0.1",
      memo: new Map(),
      ...(String(env.EXPOSE_D1_STATS) === "1" ? { d1Stats: stats } : {}),
    };
    // reads coalesce their D1 statements into shared batches; writes run one batch at a time
    configureRequestDb(app.db, { coalesce: request.method === "GET" || request.method === "HEAD" });
    const context = new RouterContextProvider();
    context.set(appContext, app);
    const response = await withBookmark(await handleRequest(request, context), session.getBookmark(), bookmark, secure);
    // an answer whose body reads D1 while it streams (the export) says so: its counts stop there
    const streamed = !response.webSocket && response.headers.has(STREAMED_D1_HEADER);
    if (streamed) response.headers.delete(STREAMED_D1_HEADER);
    if (String(env.EXPOSE_D1_STATS) === "1" && (response.body || response.webSocket)) {
      // streamed pages finish their loaders before the shell is sent, so the counts are final
      const timing = d1Timing(stats, streamed);
      // an accepted WebSocket (/api/live): its headers are the live object's, immutable here
      if (response.webSocket) return new Response(null, { status: 101, webSocket: response.webSocket, headers: { "Server-Timing": timing } });
      response.headers.set("Server-Timing", timing);
    }
    return response;
  },

  // the change stream's consumer (decision 020): the scrolls vertical keeps the feed indexes and
  // the Following timelines past a post's first slice; a
  // batch that throws is delivered again (every step is idempotent)
  queue:
    __ECHO_VERTICAL__ === "scrolls" || __ECHO_VERTICAL__ === ""
      ? async (batch, env, ctx) => {
          const changes = batch.messages.map((m) => m.body as Change);
          // FEED_INDEX_TRACE="1" (`npm run bench:indexes`): a line per batch of what it held, did
          // and cost D1, to see where an index build's time goes (warn: the log level lint allows)
          const trace: D1Stats | null = (env as { FEED_INDEX_TRACE?: string }).FEED_INDEX_TRACE === "1" ? { roundTrips: 0, rowsRead: 0, rowsWritten: 0 } : null;
          const started = Date.now();
          const db = createDb(trace ? instrumentD1(env.DB, trace) : env.DB);
          const done = await consumeChanges({ env, ctx }, db, changes);
          if (trace) console.warn(`[feed-index-trace] ${JSON.stringify({ messages: changes.length, ...done, ms: Date.now() - started, ...trace })}`);
          // the Following timelines' share (decision 013): fan-outs and a deleted echo's removal
          await consumeTimelineChanges({ env, ctx }, db, changes);
          // deleted accounts' rows, a slice of each kind a step (decision 032)
          await consumeAccountPurges({ env, ctx }, db, changes);
          await consumeEchoPurges({ env, ctx }, db, changes);
          // notification groups' shown state after a hiding change (decision 015)
          await consumeNoticeRefreshes({ env, ctx }, db, changes);
          batch.ackAll();
        }
      : undefined,

  // only the community vertical's wrangler.toml has the cron trigger; the other builds drop it
  scheduled:
    __ECHO_VERTICAL__ === "community" || __ECHO_VERTICAL__ === ""
      ? async (controller, env, ctx) => ctx.waitUntil(runScheduled(env, controller.scheduledTime, ctx))
      : undefined,
} satisfies ExportedHandler<Env>;
