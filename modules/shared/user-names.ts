// The one rule for user names (issue 28): sign-up creates only names that follow it, and every
// place that reads a name out of text or a URL — @mentions in echo text (linkify, so also the
// mention notifications a post writes), `@user` in search, `/user/by-name/{name}`, the user's
// web feeds — reads exactly it. docs/product-notes.md "Accounts" states it for people.

export const MAX_USER_NAME = 30;

/**
 * 1–30 characters of `A–Z a–z 0–9 _ . -`; the first and the last a letter, a digit or `_`;
 * never two dots in a row. So no name is `.` or `..` (a URL path cannot carry those: `/user/..`
 * is `/`), and none ends in a dot or a hyphen, which after a mention are punctuation.
 */
export const USER_NAME_PATTERN = /^(?!.*\.\.)[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,28}[A-Za-z0-9_])?$/;

export const isUserName = (name: string): boolean => USER_NAME_PATTERN.test(name);

/**
 * What the old rule (issue 18 and before: 1–30 of the same characters, nothing else) let sign-up
 * create. Accounts made under it keep their names: login and the by-name lookups still accept
 * them (docs/security.md "User names").
 */
export const LEGACY_USER_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,30}$/;

/**
 * The user name a mention means, read from the run of name characters after an `@` (`run`, at
 * most the characters `A–Z a–z 0–9 _ . -`): the name is the run up to a `..` (an ellipsis) and
 * without its trailing dots and hyphens (sentence punctuation), and must then follow the rule.
 * `@bob.` and `@bob...` and `@bob-` mention `bob`; `@a..b` mentions `a`; `@.bob` and `@-` mention
 * no one (a name cannot start so). Null when the run names no possible user.
 */
export function mentionedName(run: string): string | null {
  const dots = run.indexOf("..");
  const name = (dots < 0 ? run : run.slice(0, dots)).replace(/[.-]+$/, "");
  return isUserName(name) ? name : null;
}
