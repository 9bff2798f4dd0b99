import tseslint from "typescript-eslint";
import moduleBoundaries from "./eslint/module-boundaries.js";
import noImportCycle from "./eslint/no-import-cycle.js";

const root = import.meta.dirname;

export default tseslint.config(
  { ignores: ["node_modules", "build", ".wrangler", ".react-router", "worker-configuration.d.ts", "test-results", "migrations"] },
  ...tseslint.configs.recommended,
  {
    plugins: { echo: { rules: { "module-boundaries": moduleBoundaries, "no-import-cycle": noImportCycle } } },
    rules: {
      // Which module may use which: acyclic by construction (the rule verifies it).
      "echo/module-boundaries": [
        "error",
        {
          root,
          allow: {
            shared: [],
            verticals: [],
            auth: ["shared"],
            shell: ["shared", "verticals"],
            notification: ["shared", "auth", "shell"],
            echo: ["shared", "auth", "shell", "notification"],
            scroll: ["shared", "auth", "shell", "echo"],
            profile: ["shared", "auth", "shell", "echo", "scroll", "notification"],
            community: ["shared", "auth", "shell", "echo", "scroll"],
            // the API's contract reads every module's schemas (decision 018)
            contract: ["shared", "verticals", "auth", "echo", "scroll", "profile", "community", "notification", "live", "moderation"],
            live: ["shared", "auth", "echo", "scroll"],
            moderation: ["shared", "auth", "shell", "echo", "notification"],
          },
        },
      ],
      // …and no file-level circle inside or across them (eslint/no-import-cycle.js).
      "echo/no-import-cycle": ["error", { root }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": ["error", { allow: ["error", "warn"] }],
    },
  },
  {
    files: ["scripts/**", "e2e/**", "tests/**", "eslint/**"],
    rules: { "no-console": "off" },
  },
);
