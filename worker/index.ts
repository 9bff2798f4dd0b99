// The Worker entry: fetch → hardening → React Router; scheduled → the cron jobs.
import { createRequestHandler, RouterContextProvider } from "react-router";
import {
  appContext,
  configureRequestDb,
  createDb,
  failingD1,
  failingKV,
  instrumentD1,
  type AppContext,
  type D1Stats,
} from "../modules/shared/index.server";
import { apiErrorShape, checkOrigin, limitBody, newNonce, refuseUnknownMethod, securityHeaders } from "./security";
import { runScheduled } from "./scheduled";

const handleRequest = createRequestHandler(() => import("virtual:react-router/server-build"), import.meta.env.MODE);

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    const secure = url.protocol === "https:";
    const nonce = newNonce();
    // the body is read (or refused) first, so that no answer, the CSRF 403 included, leaves an
    // upload unread (see limitBody)
    const limited = await limitBody(request);
    const refused = refuseUnknownMethod(request) ?? checkOrigin(request);
    if (refused) return securityHeaders(refused, nonce, secure);
    if (limited instanceof Response) return securityHeaders(limited, nonce, secure);

    const stats: D1Stats = { roundTrips: 0, rowsRead: 0, rowsWritten: 0 };
    const fault = String(env.FAULT_INJECTION) === "1" ? request.headers.get("X-Echo-Fault") : null;
    const app: AppContext = {
      env: fault === "kv" ? { ...env, KV: failingKV() } : env,
      ctx,
      db: createDb(
        instrumentD1(
          fault === "d1" ? failingD1(env.DB) : env.DB,
          stats,
        ),
      ),
      nonce,
      secure,
      ip: request.headers.get("CF-Connecting-IP") ?? "127.0.0.1",
      memo: new Map(),
    };
    // reads coalesce their D1 statements into shared batches; writes run one batch at a time
    configureRequestDb(app.db, { coalesce: request.method === "GET" || request.method === "HEAD" });
    const context = new RouterContextProvider();
    context.set(appContext, app);
    let response = await handleRequest(limited, context);
    // /api always answers JSON: a path the api splat cannot match (an encoded newline, say)
    // must not fall through to the HTML not-found page.
    if (url.pathname.startsWith("/api/") && (response.headers.get("Content-Type") ?? "").startsWith("text/html")) {
      response = Response.json({ error: "No such API route", message: "No such API route" }, { status: 404 });
    }
    if (url.pathname.startsWith("/api/")) response = await apiErrorShape(response);
    if (String(env.EXPOSE_D1_STATS) === "1" && response.body) {
      // streamed pages finish their loaders before the shell is sent, so the counts are final
      response.headers.set("Server-Timing", `d1;desc="rt=${stats.roundTrips} rows=${stats.rowsRead} written=${stats.rowsWritten}"`);
    }
    return securityHeaders(response, nonce, secure);
  },

  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduled(env, controller.scheduledTime));
  },
} satisfies ExportedHandler<Env>;
