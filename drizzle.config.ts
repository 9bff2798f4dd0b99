import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./modules/shared/db/schema.ts",
  out: "./migrations",
});
