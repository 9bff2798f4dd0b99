// Secrets are not in wrangler.toml, so `wrangler types` cannot see them on a fresh clone.
// `npm run typecheck` types Env from a vertical's config (D1, KV, vars); the router's own
// bindings (wrangler.toml) are RouterBindings below.
interface Env {
  /** HS256 key for session tokens: `wrangler secret put SESSION_SECRET`; locally .dev.vars. */
  SESSION_SECRET: string;
  /**
   * The live objects (modules/live, decision 016): bound in the verticals that publish or
   * subscribe (echos hosts the class, scrolls binds it by script_name); absent elsewhere and in
   * the module tests, where nothing is published.
   */
  LIVE?: DurableObjectNamespace;
  /**
   * The change stream (modules/shared/change-stream.server.ts, decision 020): bound where echos
   * and feeds are written (echos, scrolls, people, account) and where the repair pass runs
   * (community); consumed by the scrolls vertical. Absent in the module tests.
   */
  FEED_EVENTS?: Queue<import("../modules/shared/change-stream.server").Change>;
}
declare namespace Cloudflare {
  interface Env {
    SESSION_SECRET: string;
    LIVE?: DurableObjectNamespace;
    FEED_EVENTS?: Queue<import("../modules/shared/change-stream.server").Change>;
  }
}

/** The router Worker's service bindings, one per vertical (wrangler.toml [[services]]). */
interface RouterBindings {
  ECHOS: Fetcher;
  SCROLLS: Fetcher;
  COMMUNITY: Fetcher;
  PEOPLE: Fetcher;
  ACCOUNT: Fetcher;
  /**
   * "1" when not on Cloudflare's edge: `.dev.vars` sets it (scripts/ensure-dev-vars.mjs) and is
   * never deployed. The router then does not trust a client's CF-Connecting-IP (worker/security.ts).
   */
  LOCAL_RUNTIME?: string;
}

/** The vertical being built (vite.config.ts `define`); "" when one app serves every route (`npm run dev`). */
declare const __ECHO_VERTICAL__: string;
/** modules/verticals' VERTICAL_PATHS, made at build time (vite.config.ts); undefined outside Vite. */
declare const __VERTICAL_PATHS__: [pattern: string, vertical: import("../modules/verticals/index").Vertical][] | undefined;

declare module "virtual:react-router/server-build" {
  import type { ServerBuild } from "react-router";
  const build: ServerBuild;
  export = build;
}
