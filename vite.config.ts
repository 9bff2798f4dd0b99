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
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            // the shell's small shared modules travel as one chunk: as a dozen sub-kilobyte files
            // each paid its own gzip and import overhead on the first page (decision 009)
            codeSplitting: {
              groups: [{ name: "app-common", test: /[\\/]modules[\\/](shared|shell)[\\/]|[\\/]modules[\\/]scroll[\\/]ui[\\/](counts|selection)\.|[\\/]modules[\\/]echo[\\/]ui[\\/]echo-extensions\./ }],
            },
          },
        },
      },
    },
  },
});
