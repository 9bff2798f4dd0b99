import { methodNotAllowed } from "~/modules/shared/index.server";

// A constant JSON answer from the same worker: readiness probe for scripts, and the
// benchmark's baseline for what the runtime alone can serve.
export const loader = () => Response.json({ ok: true });
export const action = () => methodNotAllowed();
