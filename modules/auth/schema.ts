import * as v from "valibot";

export const MIN_PASSWORD = 4;
export const MAX_PASSWORD = 256;
export const MAX_USER_NAME = 30;

export const MESSAGES = {
  userNameRequired: "Username is required",
  passwordRequired: "Password is required",
  passwordTooShort: `Password must be at least ${MIN_PASSWORD} characters`,
  passwordHint: `Minimum ${MIN_PASSWORD} characters required`,
  userNameRules: `1–${MAX_USER_NAME} characters: letters, numbers, "_", "." and "-"`,
  userNameTaken: "Username is already taken",
} as const;

export const UserNameSchema = v.pipe(
  v.string("Username must be a string"),
  v.trim(),
  v.nonEmpty(MESSAGES.userNameRequired),
  v.maxLength(MAX_USER_NAME, `Username must be at most ${MAX_USER_NAME} characters`),
  v.regex(/^[A-Za-z0-9_.-]+$/, 'Username may only contain letters, numbers, "_", "." and "-"'),
);

export const PasswordSchema = v.pipe(
  v.string(MESSAGES.passwordRequired),
  v.nonEmpty(MESSAGES.passwordRequired),
  v.minLength(MIN_PASSWORD, MESSAGES.passwordTooShort),
  v.maxLength(MAX_PASSWORD, `Password must be at most ${MAX_PASSWORD} characters`),
);

/** Spec §7 credentials payload, for both sign-up and login. */
export const CredentialsSchema = v.object(
  {
    userName: v.optional(UserNameSchema, ""),
    password: v.optional(PasswordSchema, ""),
  },
  "Request body must be a JSON object",
);
export type Credentials = v.InferOutput<typeof CredentialsSchema>;

/** The signed-in user as the API returns it (GET /auth/me, signup, login). */
export type User = {
  _id: string;
  userName: string;
  email: string | null;
  bio: string;
  createdAt: string;
  followersCount: number;
  followingCount: number;
};
