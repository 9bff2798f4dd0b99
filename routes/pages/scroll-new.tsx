import { useSearchParams } from "react-router";
import { ScrollForm } from "~/modules/scroll/index";
import type { Route } from "./+types/scroll-new";

export const meta: Route.MetaFunction = () => [{ title: "Create Scroll · Echo" }];

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
