import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import { appContext } from "~/modules/shared/index.server";
import { NonceProvider, StylesProvider } from "~/modules/shell/index";
import { REQUEST_ID_HEADER } from "~/modules/verticals/index";
import appCss from "./app.css?inline";

export const streamTimeout = 5_000;

/**
 * A loader's or action's unexpected error, logged with the router Worker's request id (the answer
 * carries it in X-Request-Id), so a user's report can be found in the vertical's logs. A request
 * the client abandoned is not an error.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  console.error(`request ${request.headers.get(REQUEST_ID_HEADER) ?? "-"}:`, error);
};

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const { nonce } = loadContext.get(appContext);
  let shellRendered = false;
  const body = await renderToReadableStream(
    <NonceProvider value={nonce}>
      <StylesProvider value={appCss}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </StylesProvider>
    </NonceProvider>,
    {
      nonce,
      signal: AbortSignal.timeout(streamTimeout + 1000),
      onError(error: unknown) {
        responseStatusCode = 500;
        if (shellRendered) console.error(error);
      },
    },
  );
  shellRendered = true;
  const userAgent = request.headers.get("user-agent");
  if ((userAgent && isbot(userAgent)) || routerContext.isSpaMode) await body.allReady;
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  responseHeaders.set("Cache-Control", "private, no-store");
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}
