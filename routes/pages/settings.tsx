import { data, Link, type ShouldRevalidateFunction } from "react-router";
import { ChangePasswordForm, ChangePasswordSchema, DeleteAccountForm, DeleteAccountSchema } from "~/modules/auth/index";
import { changePassword, clearedSessionCookie, deleteAccount, requireApiClaims, requireApiViewerId, requirePageViewer, requirePageViewerId } from "~/modules/auth/index.server";
import { AddMutedWordSchema, DownloadMyData, MutedWords, SafetyList } from "~/modules/profile/index";
import { addMutedWord, listMutedWords, removeMutedWord, safetyList } from "~/modules/profile/index.server";
import { badRequest } from "~/modules/shared/index";
import { appContext, pageAction, parseForm } from "~/modules/shared/index.server";
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

/**
 * The settings forms (issue 30: one way to mutate): `intent` "password" changes it, "delete"
 * deletes the account (the session check rides in the password check's batch, as over /api: two
 * round trips); "mute-word" adds a muted word (its `contexts` repeated, one value each) and answers
 * it, "unmute-word" removes `wordId` — the same services, limits and schema as
 * /api/profile/me/muted-words. An error comes back as `{ error }` for the form.
 */
export function action({ request, context }: Route.ActionArgs) {
  const app = context.get(appContext);
  return pageAction(async () => {
    const form = await request.clone().formData().catch(() => null);
    const intent = form?.get("intent");
    if (intent === "password") {
      await changePassword(app, await requireApiClaims(app, request), await parseForm(request, ChangePasswordSchema));
      return { done: "password" as const };
    }
    if (intent === "delete") {
      await deleteAccount(app, await requireApiClaims(app, request), (await parseForm(request, DeleteAccountSchema)).password);
      return data({ done: "delete" as const }, { headers: { "Set-Cookie": await clearedSessionCookie(app) } });
    }
    if (intent === "mute-word") {
      const word = await addMutedWord(app, await requireApiViewerId(app, request), await parseForm(request, AddMutedWordSchema, ["contexts"]));
      return { done: "mute-word" as const, word };
    }
    if (intent === "unmute-word") {
      const wordId = form?.get("wordId");
      await removeMutedWord(app, await requireApiViewerId(app, request), typeof wordId === "string" ? wordId : "");
      return { done: "unmute-word" as const };
    }
    throw badRequest("Unknown settings action");
  });
}

// No form needs the loader read again: a deleted account leaves the page, and the muted words'
// list takes the action's answer (the word added, or the one removed goes).
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) =>
  formData?.has("intent") ? false : defaultShouldRevalidate;

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
