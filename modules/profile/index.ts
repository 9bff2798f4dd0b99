// Client-safe public face of the profile module.
export { AddMutedWordSchema, type MutedWord, type AddMutedWordInput } from "./schema";
export { MuteSchema, MUTE_DURATIONS, MUTE_DURATION_LABELS, type MuteDuration, type SafetyRelation, type SafetyUser, type SafetyPage } from "./schema";
export { UpdateProfileSchema, ProfileScrollsQuerySchema, SearchUsersQuerySchema, MAX_BIO, type Profile, type UserHit, type PersonHit } from "./schema";
export { PeopleList } from "./ui/people-list";
export { ProfileScreen } from "./ui/profile-screen";
export { UserNotFound } from "./ui/user-not-found";
export { DownloadMyData, EXPORT_PATH } from "./ui/download-my-data";
export { SafetyList } from "./ui/safety-lists";
export { SafetyActions } from "./ui/safety-actions";
export { MutedWords } from "./ui/muted-words";
