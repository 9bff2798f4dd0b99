// Client-safe public face of the profile module.
export type { UserHit } from "./schema";
