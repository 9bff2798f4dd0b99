// Server-only public face of the profile module.
export { searchUsers, type UserHit } from "./search.server";
