import type { BaseIssue } from "valibot";

/** The first issue's message: the API answers one clear sentence naming the field. */
export function firstIssue(issues: readonly BaseIssue<unknown>[]): string {
  return issues[0]?.message ?? "Invalid input";
}
