import type { Config } from "@react-router/dev/config";

// Routes and the root live in routes/ (not the default app/): the repo's top level is
// worker/ routes/ modules/ migrations/ by design (see docs/decisions/001-platform.md).
export default {
  appDirectory: "routes",
  ssr: true,
} satisfies Config;
