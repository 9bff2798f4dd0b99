// Server-only public face of the echo module.
export { getEcho, postEcho, deleteEcho, setLike, shareEcho, reportEcho, echoColumns, toEcho, type EchoRow } from "./echo.server";
export { listEchos, listTag, dateBounds, type PageRequest } from "./lists.server";
export { webFeedRoute, tagWebFeed, WEB_FEED_ENTRIES, FEED_READER_ID, type WebFeed } from "./web-feed.server";
