// Server-only public face of the live module (decision 016): the live object class (exported by
// every vertical's entry; the echos Worker hosts it) and the upgrade route's service.
export { LiveHub } from "./hub.server";
export { openLiveSocket } from "./subscribe.server";
export { feedMatches, type LiveFilter } from "./filter";
