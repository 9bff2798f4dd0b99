import { useCallback } from "react";
import { requirePageViewer } from "~/modules/auth/index.server";
import { EchoFeed, type EchoPage } from "~/modules/echo/index";
import { listEchos } from "~/modules/echo/index.server";
import { api } from "~/modules/shared/index";
import { appContext } from "~/modules/shared/index.server";
import { EmptyState } from "~/modules/shell/index";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = () => [{ title: "Echo" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const viewer = await requirePageViewer(app, request);
  return { viewerId: viewer._id, page: await listEchos(app, viewer._id, {}, { page: 1, limit: 20 }) };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const fetchPage = useCallback((page: number, cursor: string | null) => {
    const q = new URLSearchParams({ page: String(page), limit: "20" });
    if (cursor) q.set("cursor", cursor);
    return api<EchoPage>(`/echo/all?${q}`, { fallback: "Failed to fetch echos" });
  }, []);
  return (
    <div className="page">
      <h1 className="page-title">All Echos</h1>
      <EchoFeed
        initial={loaderData.page}
        fetchPage={fetchPage}
        viewerId={loaderData.viewerId}
        empty={<EmptyState title="No echoes yet" detail="Be the first to share your thoughts!" />}
      />
    </div>
  );
}
