// Dates given by people (a tag page's date filter, a feed's date range): YYYY-MM-DD or a full
// ISO-8601 time. The one rule for what such a date covers lives here (issue 15).
import * as v from "valibot";
import { text } from "./validation";

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** A date field: YYYY-MM-DD or ISO-8601; "" means none. */
export const dateText = (field: string, typeMessage?: string) =>
  v.pipe(
    text(field, typeMessage),
    v.check((s) => s === "" || !Number.isNaN(Date.parse(s)), `${field} must be a date (YYYY-MM-DD or ISO-8601)`),
  );

/** The first millisecond a start date includes. */
export const rangeStart = (date: string): number => Date.parse(date);

/** The last millisecond an end date includes: an end date without a time covers its whole day (UTC). */
export const rangeEnd = (date: string): number => Date.parse(date) + (DATE_ONLY.test(date) ? DAY_MS - 1 : 0);
