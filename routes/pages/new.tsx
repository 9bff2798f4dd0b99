import { CreateEchoForm } from "~/modules/echo/index";
import type { Route } from "./+types/new";

export const meta: Route.MetaFunction = () => [{ title: "Create Echo · Echo" }];

export default function NewEcho() {
  return (
    <div className="page">
      <h1 className="page-title">Create Echo</h1>
      <CreateEchoForm />
    </div>
  );
}
