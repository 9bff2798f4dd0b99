// The Worker entry: fetch → hardening → React Router; scheduled → the cron jobs.
import { createRequestHandler, RouterContextProvider } from "react-router";
import { appContext, createDb, type AppContext } from "../modules/shared/index.server";
import { checkOrigin, limitBody, newNonce, securityHeaders } from "./security";
import { runScheduled } from "./scheduled";

const handleRequest = createRequestHandler(() => import("virtual:react-router/server-build"), import.meta.env.MODE);

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    const secure = url.protocol === "https:";
    const nonce = newNonce();
    const refused = checkOrigin(request);
    if (refused) return securityHeaders(refused, nonce, secure);
    const limited = await limitBody(request);
    if (limited instanceof Response) return securityHeaders(limited, nonce, secure);

    const app: AppContext = {
      env,
      ctx,
      db: createDb(env.DB),
      nonce,
      secure,
      ip: request.headers.get("CF-Connecting-IP") ?? "127.0.0.1",
      memo: new Map(),
    };
    const context = new RouterContextProvider();
    context.set(appContext, app);
    let response = await handleRequest(limited, context);
    // /api always answers JSON: a path the api splat cannot match (an encoded newline, say)
    // must not fall through to the HTML not-found page.
    if (url.pathname.startsWith("/api/") && (response.headers.get("Content-Type") ?? "").startsWith("text/html")) {
      response = Response.json({ error: "No such API route", message: "No such API route" }, { status: 404 });
    }
    return securityHeaders(response, nonce, secure);
  },

  async scheduled(controller, env, ctx) {
    ctx.waitUntil(runScheduled(env, controller.scheduledTime));
  },
} satisfies ExportedHandler<Env>;
