import { SuspensionAppealForm } from "~/modules/moderation/index";
import type { Route } from "./+types/appeal";

export const meta: Route.MetaFunction = () => [{ title: "Appeal a suspension · Echo" }];

/** A suspended account's one appeal, without a session (decision 029). */
export default function Appeal() {
  return <SuspensionAppealForm />;
}
