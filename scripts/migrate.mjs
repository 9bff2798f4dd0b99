import { migrate } from "./lib.mjs";
await migrate();
