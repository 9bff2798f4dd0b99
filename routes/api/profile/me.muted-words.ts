import { viewerApiRoute } from "~/modules/auth/index.server";
import { AddMutedWordSchema } from "~/modules/profile/index";
import { addMutedWord, listMutedWords } from "~/modules/profile/index.server";
import { parseJson } from "~/modules/shared/index.server";
import type { Route } from "./+types/me.muted-words";

/** The viewer's muted words and #tags that have not ended, newest first (issue 32, decision 028). */
export const loader = viewerApiRoute<Route.LoaderArgs>(async ({ app, viewerId }) => listMutedWords(app, viewerId));

/** Mute a phrase or #tag (again: its new options replace the old). */
export const action = viewerApiRoute<Route.ActionArgs>(
  async ({ app, viewerId, request }) => addMutedWord(app, viewerId, await parseJson(request, AddMutedWordSchema)),
  { methods: ["POST"] },
);
