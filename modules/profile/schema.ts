import * as v from "valibot";
import { maxChars, text } from "../shared/index";

export type UserHit = { _id: string; userName: string };
/** A person as the /search page lists them: with their bio and the viewer's follow. */
export type PersonHit = UserHit & { bio: string; isFollowing: boolean; isMe: boolean };


export const MAX_BIO = 300;
export const MAX_EMAIL = 254;

export const UpdateProfileSchema = v.object(
  {
    bio: v.optional(
      v.nullable(v.pipe(text("bio"), v.trim(), maxChars(MAX_BIO, `bio must be at most ${MAX_BIO} characters`))),
    ),
    email: v.optional(
      v.nullable(
        v.pipe(
          text("email"),
          v.trim(),
          // a protocol limit (RFC 5321 counts octets of an address), so code units, not characters
          v.maxLength(MAX_EMAIL, "email is too long"),
          v.check((s) => s === "" || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s), "email must be a valid address"),
        ),
      ),
    ),
  },
  "Request body must be a JSON object",
);

/** GET /api/search/users: names starting with q (none for an empty q). */
export const SearchUsersQuerySchema = v.object({ q: v.optional(text("q"), "") });

export const ProfileScrollsQuerySchema = v.object({
  type: v.optional(v.picklist(["created", "saved"], "type must be created or saved"), "created"),
});

export type Profile = {
  _id: string;
  userName: string;
  bio: string;
  email?: string | null;
  createdAt: string;
  echosCount: number;
  scrollsCount: number;
  followersCount: number;
  followingCount: number;
  isFollowing: boolean;
  isMe: boolean;
};
