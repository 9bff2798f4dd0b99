// Server-only public face of the profile module.
export { searchUsers, searchPeople } from "./search.server";
export { getProfile, findUserIdByName, updateProfile, setUserFollow, followList } from "./profile.server";
export { userWebFeed } from "./web-feed.server";
export { exportResponse, EXPORT_PAGE } from "./export.server";
export { setBlock, setMute, getRelation, safetyList, MAX_BLOCKS, MAX_MUTES } from "./safety.server";
export { listMutedWords, addMutedWord, removeMutedWord, pruneEndedWords } from "./muted-words.server";
