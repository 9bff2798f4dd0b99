// Server-only public face of the moderation module (decision 029).
export { queue, assignCase, resolveCase, auditLog, actOnAccount, actOnEcho, MAX_MODERATION_ENTRIES } from "./moderation.server";
export { myModeration, appeal, latestSuspension, suspendedPastGrace } from "./appeals.server";
export { moderatorApiRoute, MODERATORS_ONLY } from "./route.server";
