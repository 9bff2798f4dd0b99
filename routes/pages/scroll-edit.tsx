import { data, Link, type ShouldRevalidateFunction } from "react-router";
import { requireApiViewerId, requirePageViewerId } from "~/modules/auth/index.server";
import { ScrollForm, UpdateScrollSchema } from "~/modules/scroll/index";
import { getScroll, updateScroll } from "~/modules/scroll/index.server";
import { HttpError } from "~/modules/shared/index";
import { appContext, pageAction, parseJson } from "~/modules/shared/index.server";
import { EmptyState } from "~/modules/shell/index";
import type { Route } from "./+types/scroll-edit";

export const meta: Route.MetaFunction = () => [{ title: "Edit Scroll · Echo" }];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const viewer = { _id: await requirePageViewerId(app, request) };
  try {
    const scroll = await getScroll(app, viewer._id, params.id);
    if (scroll.creator._id !== viewer._id) return data({ scroll: null }, { status: 403 });
    return { scroll };
  } catch (error) {
    if (error instanceof HttpError && (error.status === 404 || error.status === 403)) {
      return data({ scroll: null }, { status: error.status });
    }
    throw error;
  }
}

/**
 * The form's submission (issue 30): the same schema, service and checks as PATCH /api/scroll/:id
 * (its creator only), sent as JSON by the form's fetcher; `{ done }` or `{ error }` for the form.
 */
export function action({ request, context, params }: Route.ActionArgs) {
  const app = context.get(appContext);
  return pageAction(async () => {
    const viewerId = await requireApiViewerId(app, request);
    return { done: (await updateScroll(app, viewerId, params.id, await parseJson(request, UpdateScrollSchema)))._id };
  });
}

// a saved edit leaves for the scroll's page, which reads it fresh: this page's loader is not read again
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) => (formMethod ? false : defaultShouldRevalidate);

export default function EditScroll({ loaderData }: Route.ComponentProps) {
  if (!loaderData.scroll) {
    return (
      <div className="page">
        <EmptyState title="Scroll not found" detail="Only a scroll's creator can edit it.">
          <Link to="/scrolls" className="btn btn-primary">
            Back to Scrolls
          </Link>
        </EmptyState>
      </div>
    );
  }
  return (
    <div className="page">
      <h1 className="page-title">Edit Scroll</h1>
      <ScrollForm scroll={loaderData.scroll} />
    </div>
  );
}
