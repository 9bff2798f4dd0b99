import { data, useRouteLoaderData } from "react-router";
import { requirePageViewerId } from "~/modules/auth/index.server";
import { EchoDetail, EchoExtensionsProvider } from "~/modules/echo/index";
import { getThread } from "~/modules/echo/index.server";
import { whyNotInMyFeed } from "~/modules/scroll/index";
import { clampChars, HttpError, isolate } from "~/modules/shared/index";
import { appContext } from "~/modules/shared/index.server";
import type { Route } from "./+types/echo";
import type { loader as layoutLoader } from "./app-layout";

export const meta: Route.MetaFunction = ({ loaderData: data }) => {
  const echo = data?.thread?.echo.echo;
  // a warned echo's title names its warning, never its text (decision 025)
  const text = echo ? (echo.warning ? `CW: ${echo.warning}` : echo.content) : "";
  return [{ title: echo ? `@${echo.author.userName}: ${isolate(clampChars(text, 40))} · Echo` : data?.thread ? "Deleted echo · Echo" : "Echo not found · Echo" }];
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const viewer = { _id: await requirePageViewerId(app, request) };
  try {
    // the echo with its thread (decision 024): one round trip
    return { viewerId: viewer._id, thread: await getThread(app, viewer._id, params.id) };
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return data({ viewerId: viewer._id, thread: null }, { status: 404 });
    throw error;
  }
}

export default function EchoRoute({ loaderData }: Route.ComponentProps) {
  // a feed's creator can ask why the echo is (or isn't) in one of their feeds: offered when the
  // shell's first page of scrolls holds one of theirs, or more pages may
  const shell = useRouteLoaderData<typeof layoutLoader>("pages/app-layout");
  const createsFeeds = Boolean(shell && (shell.nextCursor !== null || shell.scrolls.some((s) => s.type === "feed" && s.creator._id === loaderData.viewerId)));
  return (
    <EchoExtensionsProvider value={createsFeeds ? { explain: whyNotInMyFeed(loaderData.viewerId) } : {}}>
      <EchoDetail key={loaderData.thread?.echo._id ?? "missing"} thread={loaderData.thread} viewerId={loaderData.viewerId} />
    </EchoExtensionsProvider>
  );
}
