import type { Config } from "@react-router/dev/config";

// Routes and the root live in routes/ (not the default app/): the repo's top level is
// worker/ routes/ modules/ migrations/ by design (see docs/decisions/001-platform.md).
// Each vertical (VERTICAL=echos …, docs/decisions/011) builds into its own build/<vertical>/.
const vertical = process.env.VERTICAL;

export default {
  appDirectory: "routes",
  buildDirectory: vertical ? `build/${vertical}` : "build/all",
  ssr: true,
  // The client knows its routes from the start: no /__manifest request, which the router Worker
  // could not give to one vertical (its paths can belong to several). A path of another vertical
  // is a document navigation (routes/entry.client.tsx).
  routeDiscovery: { mode: "initial" },
} satisfies Config;
