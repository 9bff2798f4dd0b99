import { Link } from "react-router";
import { EmptyState } from "../../shell/index";

/** A profile that is not there: by id (/user/:id) or by name (an @mention, /user/by-name/:name). */
export function UserNotFound() {
  return (
    <div className="page">
      <EmptyState title="User not found" detail="This account may have been removed or never existed.">
        <Link to="/" className="btn btn-primary">
          Go home
        </Link>
      </EmptyState>
    </div>
  );
}
