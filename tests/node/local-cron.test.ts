// The cron matcher `npm start` fires the configs' crons with (scripts/cron.mjs): the forms it
// supports, in UTC, and the forms it refuses instead of never firing.
import { describe, expect, it } from "vitest";
// @ts-expect-error -- a plain .mjs script shared by the npm scripts, no type declarations
import { dueCrons, parseCron } from "../../scripts/cron.mjs";

const at = (iso: string) => new Date(iso);
const fires = (expression: string, iso: string): boolean => parseCron(expression).matches(at(iso));
/** The minutes of one UTC hour (starting at `hourIso`) in which `expression` fires. */
const minutesOf = (expression: string, hourIso: string) => {
  const start = at(hourIso).getTime();
  return Array.from({ length: 60 }, (_, m) => m).filter((m) => parseCron(expression).matches(new Date(start + m * 60_000)));
};

describe("local cron matcher", () => {
  it("*/5 * * * * (the ranking pass) fires at every fifth minute of every hour, and only then", () => {
    expect(minutesOf("*/5 * * * *", "2026-03-01T13:00:00Z")).toEqual([0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55]);
    expect(minutesOf("*/5 * * * *", "2026-12-31T23:00:00Z")).toHaveLength(12);
  });

  it("numbers, ranges, steps and lists, read in UTC", () => {
    expect(minutesOf("7 * * * *", "2026-03-01T13:00:00Z")).toEqual([7]);
    expect(minutesOf("10-20/5,59 * * * *", "2026-03-01T13:00:00Z")).toEqual([10, 15, 20, 59]);
    expect(minutesOf("50/3 * * * *", "2026-03-01T13:00:00Z")).toEqual([50, 53, 56, 59]);
    expect(fires("30 2 * * *", "2026-03-01T02:30:00Z")).toBe(true);
    expect(fires("30 2 * * *", "2026-03-01T02:30:00+01:00")).toBe(false); // 01:30 UTC
    expect(fires("0 0 1 1 *", "2026-01-01T00:00:00Z")).toBe(true);
    expect(fires("0 0 1 1 *", "2026-02-01T00:00:00Z")).toBe(false);
  });

  it("day of week: 0 and 7 are Sunday; with both day fields restricted either one matches", () => {
    // 2026-03-01 is a Sunday, 2026-03-02 a Monday
    expect(fires("0 12 * * 0", "2026-03-01T12:00:00Z")).toBe(true);
    expect(fires("0 12 * * 7", "2026-03-01T12:00:00Z")).toBe(true);
    expect(fires("0 12 * * 1-5", "2026-03-01T12:00:00Z")).toBe(false);
    expect(fires("0 12 * * 1-5", "2026-03-02T12:00:00Z")).toBe(true);
    expect(fires("0 12 15 * 1", "2026-03-02T12:00:00Z")).toBe(true); // a Monday, not the 15th
    expect(fires("0 12 15 * 1", "2026-03-15T12:00:00Z")).toBe(true); // the 15th, a Sunday
    expect(fires("0 12 15 * 1", "2026-03-03T12:00:00Z")).toBe(false);
    expect(fires("0 12 15 * *", "2026-03-02T12:00:00Z")).toBe(false);
  });

  it("dueCrons names the expressions due in a minute", () => {
    const crons = ["*/5 * * * *", "0 * * * *", "1 * * * *"].map(parseCron);
    expect(dueCrons(crons, at("2026-03-01T13:00:00Z"))).toEqual(["*/5 * * * *", "0 * * * *"]);
    expect(dueCrons(crons, at("2026-03-01T13:01:00Z"))).toEqual(["1 * * * *"]);
    expect(dueCrons(crons, at("2026-03-01T13:02:00Z"))).toEqual([]);
  });

  it.each(["* * * *", "*/5 * * * * *", "0 0 * * MON", "0 0 L * *", "0 0 * * 1#2", "60 * * * *", "0 24 * * *", "0 0 0 * *", "*/0 * * * *", "5-1 * * * *"])(
    "refuses %j when the server starts rather than never firing it",
    (expression) => {
      expect(() => parseCron(expression)).toThrow(/cron "/);
    },
  );
});
