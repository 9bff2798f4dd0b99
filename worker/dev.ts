// `npm run dev`: one Vite app serves every route (no VERTICAL), behind the same router code as
// production, so a developer sees the same headers, CSRF checks and nonce contract.
import app from "../verticals/app";
import { route } from "./router";

export { LiveHub } from "../verticals/app";

export default {
  // `npm run dev` is never on Cloudflare's edge, whatever .dev.vars says
  fetch: (request, env, ctx) =>
    route(request, (_vertical, forwarded) => app.fetch(forwarded as Parameters<typeof app.fetch>[0], env, ctx), { localRuntime: true }),
  scheduled: app.scheduled,
} satisfies ExportedHandler<Env>;
