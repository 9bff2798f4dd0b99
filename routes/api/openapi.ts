import { openApiDocument } from "~/modules/contract/index.server";
import { methodNotAllowed } from "~/modules/shared/index.server";

/**
 * GET /api/openapi.json: the API's contract (decision 018). Made from the route table in code,
 * never from the store (no D1 round trip), and the same until the next deploy: cacheable.
 */
export const loader = () => Response.json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } });

/** Read-only: any write method answers 405 in the API's error shape. */
export const action = () => methodNotAllowed();
