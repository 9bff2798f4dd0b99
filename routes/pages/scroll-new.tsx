import { useSearchParams, type ShouldRevalidateFunction } from "react-router";
import { requireApiViewerId } from "~/modules/auth/index.server";
import { CreateScrollSchema, ScrollForm } from "~/modules/scroll/index";
import { createScroll } from "~/modules/scroll/index.server";
import { appContext, pageAction, parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/scroll-new";

export const meta: Route.MetaFunction = () => [{ title: "Create Scroll · Echo" }];

/**
 * The form's submission (issue 30: one way to mutate): the same schema, service and limits as
 * POST /api/scroll/create, sent as JSON by the form's fetcher (a rule is nested: tags, authors, a
 * date range). Answers the new scroll's id, or `{ error }` for the form.
 */
export function action({ request, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  return pageAction(async () => {
    const viewerId = await requireApiViewerId(app, request);
    return { done: (await createScroll(app, viewerId, await parseJson(request, CreateScrollSchema)))._id };
  });
}

// the page reads nothing a submission changes (it has no loader); the form moves on by itself
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) => (formMethod ? false : defaultShouldRevalidate);

export default function NewScroll() {
  const [params] = useSearchParams();
  const type = params.get("type") === "curation" ? "curation" : "feed";
  return (
    <div className="page">
      <h1 className="page-title">Create Scroll</h1>
      <ScrollForm key={type} initialType={type} />
    </div>
  );
}
