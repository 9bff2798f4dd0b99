import { data } from "react-router";
import { requirePageViewerId } from "~/modules/auth/index.server";
import { EchoDetail } from "~/modules/echo/index";
import { getEcho } from "~/modules/echo/index.server";
import { clampChars, HttpError, isolate } from "~/modules/shared/index";
import { appContext } from "~/modules/shared/index.server";
import type { Route } from "./+types/echo";

export const meta: Route.MetaFunction = ({ loaderData: data }) => [
  { title: data?.echo ? `@${data.echo.author.userName}: ${isolate(clampChars(data.echo.content, 40))} · Echo` : "Echo not found · Echo" },
];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const viewer = { _id: await requirePageViewerId(app, request) };
  try {
    return { viewerId: viewer._id, echo: await getEcho(app, viewer._id, params.id) };
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return data({ viewerId: viewer._id, echo: null }, { status: 404 });
    throw error;
  }
}

export default function EchoRoute({ loaderData }: Route.ComponentProps) {
  return <EchoDetail key={loaderData.echo?._id ?? "missing"} echo={loaderData.echo} viewerId={loaderData.viewerId} />;
}
