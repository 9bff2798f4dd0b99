import { Link } from "react-router";
import { ChangePasswordForm, DeleteAccountForm } from "~/modules/auth/index";
import { requirePageViewer, requirePageViewerId } from "~/modules/auth/index.server";
import { DownloadMyData, MutedWords, SafetyList } from "~/modules/profile/index";
import { listMutedWords, safetyList } from "~/modules/profile/index.server";
import { appContext } from "~/modules/shared/index.server";
import { SettingsScreen } from "~/modules/shell/index";
import type { Route } from "./+types/settings";

export const meta: Route.MetaFunction = () => [{ title: "Settings · Echo" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  // the first page of each list rides in the session check's batch (one round trip, issue 32)
  const viewerId = await requirePageViewerId(app, request);
  const [viewer, blocks, mutes, words] = await Promise.all([
    requirePageViewer(app, request),
    safetyList(app, viewerId, "blocks", { limit: 20 }),
    safetyList(app, viewerId, "mutes", { limit: 20 }),
    listMutedWords(app, viewerId),
  ]);
  return { account: { userName: viewer.userName, email: viewer.email, createdAt: viewer.createdAt }, blocks, mutes, words: words.words };
}

export default function Settings({ loaderData }: Route.ComponentProps) {
  return (
    <SettingsScreen account={loaderData.account}>
      <ChangePasswordForm />
      <SafetyList which="blocks" initial={loaderData.blocks} />
      <SafetyList which="mutes" initial={loaderData.mutes} />
      <MutedWords initial={loaderData.words} />
      <section className="card" aria-labelledby="status-title">
        <h2 id="status-title">Account status</h2>
        <p>
          <Link to="/account-status">Your account's standing and what moderators did</Link>
        </p>
      </section>
      <DownloadMyData />
      <DeleteAccountForm />
    </SettingsScreen>
  );
}
