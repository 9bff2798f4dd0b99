// A user's web feed (/user/{userName}/feed.*): their newest echos. Two round trips: the name's
// id, then the profile and the echos together (reads coalesce into one batch).
import { FEED_READER_ID, listEchos, WEB_FEED_ENTRIES, type WebFeed } from "../echo/index.server";
import { notFound } from "../shared/index";
import type { AppContext } from "../shared/index.server";
import { findUserIdByName, getProfile } from "./profile.server";

export async function userWebFeed(app: AppContext, userName: string): Promise<WebFeed> {
  const id = await findUserIdByName(app, userName);
  if (!id) throw notFound("User not found");
  const [profile, page] = await Promise.all([getProfile(app, FEED_READER_ID, id), listEchos(app, FEED_READER_ID, { user: id }, { page: 1, limit: WEB_FEED_ENTRIES })]);
  return {
    title: `@${profile.userName} · Echo`,
    description: profile.bio || `The newest echos by @${profile.userName}`,
    pagePath: `/user/${profile._id}`,
    feedBase: `/user/${encodeURIComponent(profile.userName)}`,
    entries: page.echos,
    emptyUpdated: profile.createdAt,
  };
}
