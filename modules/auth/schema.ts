import * as v from "valibot";
import { LEGACY_USER_NAME_PATTERN, MAX_USER_NAME, USER_NAME_PATTERN, maxChars, minChars, text } from "../shared/index";

export const MIN_PASSWORD = 4;
export const MAX_PASSWORD = 256;
export { MAX_USER_NAME };

export const MESSAGES = {
  userNameRequired: "Username is required",
  passwordRequired: "Password is required",
  passwordTooShort: `Password must be at least ${MIN_PASSWORD} characters`,
  passwordHint: `Minimum ${MIN_PASSWORD} characters required`,
  userNameRules: `1–${MAX_USER_NAME} characters: letters, numbers, "_", "." and "-"; starts and ends with a letter, number or "_"`,
  userNameShape: 'Username must start and end with a letter, number or "_", and may not have two dots in a row',
  userNameTaken: "Username is already taken",
} as const;

const userNameText = v.pipe(
  text("Username", "Username must be a string"),
  v.trim(),
  v.nonEmpty(MESSAGES.userNameRequired),
  maxChars(MAX_USER_NAME, `Username must be at most ${MAX_USER_NAME} characters`),
  v.regex(LEGACY_USER_NAME_PATTERN, 'Username may only contain letters, numbers, "_", "." and "-"'),
);

/**
 * A new user name (sign-up): the one rule of modules/shared/user-names.ts, which mentions, search,
 * `/user/by-name/…` and web feeds read by. No `.` or `..` (a URL cannot carry them), no trailing
 * dot or hyphen (punctuation after a mention), no `..` (an ellipsis ends a mention).
 */
export const UserNameSchema = v.pipe(userNameText, v.regex(USER_NAME_PATTERN, MESSAGES.userNameShape));

/**
 * A name to sign in with: any name an account can have, those made before the rule above
 * included (the old rule allowed `a.`, `-a`, `a..b`; such accounts keep their names).
 */
export const LoginNameSchema = userNameText;

export const PasswordSchema = v.pipe(
  text("Password", MESSAGES.passwordRequired),
  v.nonEmpty(MESSAGES.passwordRequired),
  minChars(MIN_PASSWORD, MESSAGES.passwordTooShort),
  maxChars(MAX_PASSWORD, `Password must be at most ${MAX_PASSWORD} characters`),
);

/** Spec §7 credentials payload of sign-up: the name follows the user-name rule. */
export const CredentialsSchema = v.object(
  {
    userName: v.optional(UserNameSchema, ""),
    password: v.optional(PasswordSchema, ""),
  },
  "Request body must be a JSON object",
);
export type Credentials = v.InferOutput<typeof CredentialsSchema>;

/** Spec §7 credentials payload of login: any existing account's name (LoginNameSchema). */
export const LoginSchema = v.object(
  {
    userName: v.optional(LoginNameSchema, ""),
    password: v.optional(PasswordSchema, ""),
  },
  "Request body must be a JSON object",
);

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

export const ACCOUNT_MESSAGES = {
  currentPasswordRequired: "Current password is required",
  currentPasswordWrong: "Current password is incorrect",
  passwordWrong: "Password is incorrect",
  passwordChanged: "Password changed",
  passwordSame: "Password must be different from the current password",
  accountDeleted: "Your account has been deleted",
} as const;

/** A password to check against the stored one: only present and not absurdly long. */
const GivenPassword = (required: string) =>
  v.optional(
    v.pipe(v.string(required), v.nonEmpty(required), v.maxLength(MAX_PASSWORD, `Password must be at most ${MAX_PASSWORD} characters`)),
    "",
  );

/** POST /api/auth/password: the new password follows the sign-up rules. */
export const ChangePasswordSchema = v.pipe(
  v.object(
    {
      currentPassword: GivenPassword(ACCOUNT_MESSAGES.currentPasswordRequired),
      newPassword: v.optional(PasswordSchema, ""),
    },
    "Request body must be a JSON object",
  ),
  // "changing" to the same password changes nothing and signs the other devices out (issue 29)
  v.check((input) => input.newPassword !== input.currentPassword, ACCOUNT_MESSAGES.passwordSame),
);
export type ChangePassword = v.InferOutput<typeof ChangePasswordSchema>;

/** DELETE /api/profile/me: the password confirms it. */
export const DeleteAccountSchema = v.object({ password: GivenPassword(MESSAGES.passwordRequired) }, "Request body must be a JSON object");
