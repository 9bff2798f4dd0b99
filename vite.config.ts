import { reactRouter } from "@react-router/dev/vite";
import { cloudflare } from "@cloudflare/vite-plugin";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [
    cloudflare({
      viteEnvironment: { name: "ssr" },
      persistState: process.env.STATE_DIR ? { path: process.env.STATE_DIR } : true,
    }),
    reactRouter(),
  ],
  resolve: { tsconfigPaths: true },
});
