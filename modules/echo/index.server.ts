// Server-only public face of the echo module.
export { getEcho, postEcho, setLike, shareEcho, reportEcho } from "./echo.server";
export { deleteEcho, consumeEchoPurges, ECHO_PURGE_SLICE } from "./delete.server";
export { echoColumns, toEcho, type EchoRow } from "./echo-row.server";
export { editEcho, echoHistory } from "./edit.server";
export { conversationOf, getThread } from "./thread.server";
export { setRepost, listReposters, listQuotes } from "./repost.server";
export { listEchos, listTag, dateBounds, type PageRequest } from "./lists.server";
export { scanWindow, windowPage, type Key, type ListRows, type Probe, type Refill, type WindowAsk } from "./scan-window.server";
export { searchEchos, SEARCH_WINDOW, type SearchPage } from "./search.server";
export { consumeTimelineChanges, FANOUT_INLINE, FANOUT_SLICE, backfillFollow, removeFollowee, trimTimelines, TIMELINE_CAP, FOLLOW_BACKFILL, UNFOLLOW_REMOVE } from "./timeline.server";
export { listFollowing, followingIfAny, timelineOwners, repostReaders } from "./timeline-pages.server";
export { webFeedRoute, tagWebFeed, WEB_FEED_ENTRIES, FEED_READER_ID, type WebFeed } from "./web-feed.server";
export { allChannels, liveChannel, publishCurationAdd, publishLive, publishRepost, publishEdit, publishDelete, LIVE_ALL_SHARDS, type LiveEdit } from "./live.server";
