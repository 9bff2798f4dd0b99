// Secrets are not in wrangler.toml, so `wrangler types` cannot see them on a fresh clone.
interface Env {
  /** HS256 key for session tokens: `wrangler secret put SESSION_SECRET`; locally .dev.vars. */
  SESSION_SECRET: string;
}
declare namespace Cloudflare {
  interface Env {
    SESSION_SECRET: string;
  }
}

declare module "virtual:react-router/server-build" {
  import type { ServerBuild } from "react-router";
  const build: ServerBuild;
  export = build;
}
