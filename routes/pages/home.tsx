import { Link } from "react-router";
import { EmptyState } from "~/modules/shell/index";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = () => [{ title: "Echo" }];

export default function Home() {
  return (
    <div className="page">
      <EmptyState title="No Scrolls" detail="Create your first scroll to get started">
        <Link to="/scroll/new" className="btn btn-primary">
          Create Scroll
        </Link>
        <Link to="/community" className="btn">
          Browse Community Scrolls
        </Link>
      </EmptyState>
    </div>
  );
}
