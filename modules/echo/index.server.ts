// Server-only public face of the echo module.
export { getEcho, postEcho, deleteEcho, setLike, shareEcho, reportEcho, echoColumns, toEcho, type EchoRow } from "./echo.server";
export { listEchos, listTag, dateBounds, type PageRequest } from "./lists.server";
export { listFollowing, backfillFollow, removeFollowee, followsAnyone, trimTimelines, TIMELINE_CAP, FOLLOW_BACKFILL } from "./timeline.server";
