import { reactRouter } from "@react-router/dev/vite";
import { cloudflare } from "@cloudflare/vite-plugin";
import { defineConfig } from "vite";
import { assetBase, isVertical, VERTICAL_PATHS } from "./modules/verticals/index.ts";
import { reactDomAsciiChunks } from "./scripts/react-dom-ascii-chunks.ts";

// VERTICAL=echos … builds one vertical Worker (docs/decisions/011): its own routes
// (routes/routes.ts), its wrangler config, its assets under /_v/<vertical>/. Without it
// (`npm run dev`) one app serves every route behind the same router code (worker/dev.ts).
const vertical = process.env.VERTICAL ?? "";
if (vertical && !isVertical(vertical)) throw new Error(`VERTICAL=${vertical} is not one of modules/verticals' VERTICALS`);
const base = isVertical(vertical) ? assetBase(vertical) : "/";

export default defineConfig({
  base,
  // the URL space's owners, made from the route table here, so the client does not carry the table
  define: { __ECHO_VERTICAL__: JSON.stringify(vertical), __VERTICAL_PATHS__: JSON.stringify(VERTICAL_PATHS) },
  plugins: [
    cloudflare({
      configPath: vertical ? `verticals/${vertical}/wrangler.toml` : "verticals/dev/wrangler.toml",
      viteEnvironment: { name: "ssr" },
      persistState: process.env.STATE_DIR ? { path: process.env.STATE_DIR } : true,
    }),
    reactRouter(),
    reactDomAsciiChunks(),
  ],
  resolve: { tsconfigPaths: true },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            // the shell's small shared modules travel as one chunk: as a dozen sub-kilobyte files
            // each paid its own gzip and import overhead on the first page (decision 009); the
            // shared files that import valibot stay out of it, so valibot loads with the forms
            // and parsers that use it, not on every first page
            codeSplitting: {
              groups: [
                // react-router's client modules as one chunk: with no <Link> left in the shell,
                // the bundler otherwise cut them into three (about 3 KB more gzip on first load)
                { name: "react-router", test: /[\\/]node_modules[\\/]react-router[\\/]/ },
                // the echo list's pieces that every feed page loads together, as one file: five small
                // chunks cost their own gzip headers and import lines on home's first load (decision 009)
                { name: "echo-list", test: /[\\/]modules[\\/]echo[\\/]ui[\\/](echo-card|echo-feed|echo-text|echo-actions|echo-menu|counted-action)\.|[\\/]modules[\\/]scroll[\\/]ui[\\/]why-dialog-lazy\./ },
                { name: "app-common", test: /[\\/]modules[\\/]shared[\\/](?!validation\.|text\.|ids\.|dates\.|pagination\.|load-more\.|paged-list\.|lazy-load-more\.)|[\\/]modules[\\/]shell[\\/]|[\\/]modules[\\/]scroll[\\/]ui[\\/](counts|selection)\.|[\\/]modules[\\/]echo[\\/]ui[\\/]echo-extensions\./ }],
            },
          },
        },
      },
    },
  },
});
