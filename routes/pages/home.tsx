import { requirePageViewerId, viewerFollowsAnyone } from "~/modules/auth/index.server";
import { followingIfAny, listEchos, listFollowing } from "~/modules/echo/index.server";
import { ALL_ECHOS, FOLLOWING, HomeFeed, homeLiveQuery } from "~/modules/scroll/index";
import { DOCUMENT_CANDIDATE_ROWS, scrollEchos, scrollsAndSelection, storedSelection } from "~/modules/scroll/index.server";
import { appContext } from "~/modules/shared/index.server";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = () => [{ title: "Echo" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const viewer = { _id: await requirePageViewerId(app, request) };
  const first = { page: 1, limit: 20 };
  // The page the stored choice most likely shows is asked for in the same D1 batch as the
  // selection itself (one round trip): All echos or Following when chosen, and Following when
  // nothing is stored and the viewer follows anyone (else that statement reads no timeline row).
  // A feed needs its rules first (a second round trip), as does the fallback to the first feed.
  const list = (id: string) => (id === FOLLOWING ? listFollowing(app, viewer._id, first) : listEchos(app, viewer._id, {}, first));
  const stored = await storedSelection(request);
  const followsAnyone = viewerFollowsAnyone(app, request);
  followsAnyone.catch(() => undefined); // an invalid session fails the batch's reads, thrown below
  const guess =
    stored === ALL_ECHOS || stored === FOLLOWING
      ? { id: stored, page: list(stored) }
      : stored === null
        ? { id: FOLLOWING, page: followingIfAny(app, viewer._id, first, followsAnyone) }
        : null;
  guess?.page.catch(() => undefined); // unused when the guess missed; the selection's own error is thrown below
  const { scrolls, selected, selectedId } = await scrollsAndSelection(app, viewer._id, request, followsAnyone);
  const listId = selectedId === FOLLOWING ? FOLLOWING : ALL_ECHOS;
  const guessed = !selected && guess?.id === listId ? await guess.page : null;
  const page = selected
    ? await scrollEchos(app, viewer._id, selected, first, Date.now(), DOCUMENT_CANDIDATE_ROWS)
    : (guessed ?? (await list(listId)));
  return { viewerId: viewer._id, scrolls, selected, selectedId, page, live: homeLiveQuery(selected, selectedId === FOLLOWING) };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return <HomeFeed {...loaderData} />;
}
