export type UserHit = { _id: string; userName: string };
