// valibot rules for the schemas (forms, API doors). Kept apart from the plain text helpers
// (text.ts), which pages render with: valibot then loads only with a schema (decision 009).
import * as v from "valibot";
import type { BaseIssue } from "valibot";
import { charCount } from "./char-count";
import { ILL_FORMED_MESSAGE, isWellFormedText, UNITS_PER_CHAR } from "./text";

/** The first issue's message: the API answers one clear sentence naming the field. */
export function firstIssue(issues: readonly BaseIssue<unknown>[]): string {
  return issues[0]?.message ?? "Invalid input";
}

/** valibot: the text is well-formed (text.ts); `field` names it in the message. */
export const wellFormed = (field: string) => v.check((s: string) => isWellFormedText(s), `${field} ${ILL_FORMED_MESSAGE}`);

/** valibot: at most `max` characters as a person counts them (and within the storage bound). */
export const maxChars = (max: number, message: string) =>
  v.check((s: string) => s.length <= max || (s.length <= max * UNITS_PER_CHAR && charCount(s) <= max), message);

/** valibot: at least `min` characters as a person counts them. */
export const minChars = (min: number, message: string) => v.check((s: string) => charCount(s) >= min, message);

/** valibot: a string of well-formed text; every schema's text fields start from this. */
export const text = (field: string, typeMessage = `${field} must be a string`) => v.pipe(v.string(typeMessage), wellFormed(field));
