import { ChangePasswordForm, DeleteAccountForm } from "~/modules/auth/index";
import { requirePageViewer } from "~/modules/auth/index.server";
import { DownloadMyData } from "~/modules/profile/index";
import { appContext } from "~/modules/shared/index.server";
import { SettingsScreen } from "~/modules/shell/index";
import type { Route } from "./+types/settings";

export const meta: Route.MetaFunction = () => [{ title: "Settings · Echo" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requirePageViewer(context.get(appContext), request);
  return { account: { userName: viewer.userName, email: viewer.email, createdAt: viewer.createdAt } };
}

export default function Settings({ loaderData }: Route.ComponentProps) {
  return (
    <SettingsScreen account={loaderData.account}>
      <ChangePasswordForm />
      <DownloadMyData />
      <DeleteAccountForm />
    </SettingsScreen>
  );
}
