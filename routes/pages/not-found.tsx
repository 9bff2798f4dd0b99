import { data, Link } from "react-router";
import { EmptyState } from "~/modules/shell/index";

export const loader = () => data(null, { status: 404 });

export function meta() {
  return [{ title: "Page not found · Echo" }];
}

export default function NotFound() {
  return (
    <EmptyState heading title="Page not found" detail="The page you are looking for doesn't exist yet.">
      <Link to="/" className="btn btn-primary">
        Go home
      </Link>
    </EmptyState>
  );
}
