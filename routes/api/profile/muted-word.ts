import { viewerApiRoute } from "~/modules/auth/index.server";
import { removeMutedWord } from "~/modules/profile/index.server";
import { methodNotAllowed } from "~/modules/shared/index.server";
import type { Route } from "./+types/muted-word";

export const loader = () => methodNotAllowed();

/** Unmute a word (idempotent). */
export const action = viewerApiRoute<Route.ActionArgs>(async ({ app, viewerId, params }) => removeMutedWord(app, viewerId, params.wordId), {
  methods: ["DELETE"],
});
