// The router Worker (wrangler.toml): path → the owning vertical's service binding (worker/router.ts).
// The verticals (verticals/<name>/wrangler.toml) have no public route of their own.
import type { Vertical } from "../modules/verticals/index";
import { isLocalRuntime, route } from "./router";

const BINDING: Record<Vertical, Exclude<keyof RouterBindings, "LOCAL_RUNTIME">> = {
  echos: "ECHOS",
  scrolls: "SCROLLS",
  community: "COMMUNITY",
  people: "PEOPLE",
  account: "ACCOUNT",
};

export default {
  fetch(request, env) {
    return route(request, (vertical, forwarded) => env[BINDING[vertical]].fetch(forwarded), { localRuntime: isLocalRuntime(env.LOCAL_RUNTIME) });
  },

  /**
   * The cron belongs to the community vertical (its wrangler.toml); the router has none in
   * production. Locally, wrangler's `/cdn-cgi/handler/scheduled` fires the first Worker of the
   * dev session, the router, which passes the event on.
   */
  async scheduled(controller, env) {
    // workerd's service bindings take scheduled events; @cloudflare/workers-types does not list it
    const community = env.COMMUNITY as Fetcher & { scheduled(event: { cron: string; scheduledTime: Date }): Promise<unknown> };
    await community.scheduled({ cron: controller.cron, scheduledTime: new Date(controller.scheduledTime) });
  },
} satisfies ExportedHandler<RouterBindings>;
