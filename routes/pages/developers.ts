import { openApiDocument, referencePage } from "~/modules/contract/index.server";
import { methodNotAllowed } from "~/modules/shared/index.server";

/** GET /developers: the API reference as plain HTML, made from the OpenAPI document; public and cacheable. */
export const loader = () =>
  new Response(referencePage(openApiDocument()), {
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });

export const action = () => methodNotAllowed();
