// Server-only public face of the auth module.
export {
  signup,
  login,
  logout,
  requireApiViewer,
  requirePageViewer,
  requireApiViewerId,
  requireApiClaims,
  requirePageViewerId,
  viewerFollowsAnyone,
  liveSessionOf,
  checkCredentials,
  SUSPENDED_MESSAGE,
} from "./auth.server";
export { getViewer, staleSessionCookie, confirmSession, type Viewer } from "./session-check.server";
export { toUser } from "./user-row.server";
export { ABSOLUTE_LIFETIME_MS, IDLE_LIFETIME_MS, sessionCookie, clearedSessionCookie } from "./session.server";
export { hashPassword, verifyPassword } from "./password.server";
export { viewerApiRoute } from "./api-route.server";
export { carriesSessionCookie } from "./signed-in.server";
export { changePassword, deleteAccount, purgeAccount } from "./account.server";
export { consumeAccountPurges, PURGE_SLICE, PURGE_ECHOS } from "./purge.server";
