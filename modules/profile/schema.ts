import * as v from "valibot";
import { MAX_MUTED_WORD, MUTE_CONTEXTS, maxChars, mutePattern, text, type MuteContext } from "../shared/index";

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

// ── Blocks and mutes (issue 32, docs/decisions/026-safety.md) ─────────────────────────────────

/** How long a mute lasts: until unmuted, or a while (Mastodon's choices, shorter first). */
export const MUTE_DURATIONS = ["forever", "1h", "1d", "7d", "30d"] as const;
export type MuteDuration = (typeof MUTE_DURATIONS)[number];
export const MUTE_DURATION_MS: Record<Exclude<MuteDuration, "forever">, number> = {
  "1h": 3_600_000,
  "1d": 86_400_000,
  "7d": 7 * 86_400_000,
  "30d": 30 * 86_400_000,
};
export const MUTE_DURATION_LABELS: Record<MuteDuration, string> = {
  forever: "Until I unmute",
  "1h": "1 hour",
  "1d": "1 day",
  "7d": "7 days",
  "30d": "30 days",
};

/** POST /api/profile/user/{userId}/mute: an optional duration (default: until unmuted). */
export const MuteSchema = v.object(
  {
    duration: v.optional(v.picklist(MUTE_DURATIONS, `duration must be one of ${MUTE_DURATIONS.join(", ")}`), "forever"),
  },
  "Request body must be a JSON object",
);

/** Where the viewer stands with a user: whether they block or mute them, and until when. */
export type SafetyRelation = { userId: string; blocked: boolean; muted: boolean; mutedUntil: string | null };

/** A blocked or muted account in the settings lists: since when, and (mutes) until when. */
export type SafetyUser = { _id: string; userName: string; since: string; until: string | null };
export type SafetyPage = { users: SafetyUser[]; pagination: { limit: number; hasMore: boolean; nextCursor: string | null } };

// ── Muted words (issue 32, docs/decisions/028-muted-words.md) ────────────────────────────────

/** A muted phrase or #tag as the settings list shows it. */
export type MutedWord = {
  _id: string;
  phrase: string;
  action: "hide" | "warn";
  contexts: MuteContext[];
  createdAt: string;
  /** when it ends by itself; null: until removed */
  expiresAt: string | null;
};

/** POST /api/profile/me/muted-words: a phrase or #tag, what to do, where, for how long. */
export const AddMutedWordSchema = v.object(
  {
    // optional only so that a missing phrase gets the phrase's own message ("phrase is required")
    phrase: v.pipe(
      v.optional(text("phrase"), ""),
      v.trim(),
      v.minLength(1, "phrase is required"),
      maxChars(MAX_MUTED_WORD, `phrase must be at most ${MAX_MUTED_WORD} characters`),
      v.check((p) => mutePattern(p) !== null, "phrase must contain a letter or a digit"),
    ),
    action: v.optional(v.picklist(["hide", "warn"], "action must be hide or warn"), "hide"),
    contexts: v.optional(
      v.pipe(
        v.array(v.picklist(MUTE_CONTEXTS, `contexts must be among ${MUTE_CONTEXTS.join(", ")}`), "contexts must be an array"),
        v.minLength(1, "contexts must name at least one list"),
      ),
      () => [...MUTE_CONTEXTS],
    ),
    duration: v.optional(v.picklist(MUTE_DURATIONS, `duration must be one of ${MUTE_DURATIONS.join(", ")}`), "forever"),
  },
  "Request body must be a JSON object",
);
export type AddMutedWordInput = v.InferOutput<typeof AddMutedWordSchema>;
