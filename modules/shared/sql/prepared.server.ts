// Statements rendered once per isolate ("prepared shapes"): the reads every signed-in page runs
// and the feed engine's frames. Rendering them anew on each request was a measurable part of a
// page's CPU (issue 15, decision 019's second and third passes).
import { fillPlaceholders, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { Query, Select } from "./statement.server";

/** A Drizzle placeholder for each value name: what `prepared` statements are written with. */
const slotsOf = <K extends string>(names: readonly K[]) =>
  Object.fromEntries(names.map((name) => [name, sql.placeholder(name)])) as Record<K, Placeholder<K>>;

/**
 * A read whose shape never changes, written once with Drizzle placeholders for its values
 * (`slots.viewerId`): Drizzle renders it to SQL once per isolate and each use only binds values,
 * as Drizzle's prepared queries do. For the statements every signed-in page runs (the session
 * check, the sidebar's scrolls, the bell).
 */
export function prepared<const K extends string, R>(
  names: readonly K[],
  build: (slots: Record<K, Placeholder<K>>) => Select<R>,
): (values: Record<K, unknown>) => Select<R> {
  let made: { query: Query; decode: Select<R>["decode"] } | undefined;
  return (values) => {
    if (!made) {
      const statement = build(slotsOf(names));
      made = { query: statement.toQuery(), decode: statement.decode };
    }
    const { query, decode } = made;
    return { toQuery: () => ({ sql: query.sql, params: fillPlaceholders(query.params, values) }), decode };
  };
}

const BODY = "\u0000body\u0000";

/**
 * `prepared` for a read whose middle is SQL text made anew on each use with its values written
 * in (the feed engine's statements, decision 008): the rest — its column list, its joins — is
 * rendered once per isolate, and each use puts the text in and binds the placeholders' values.
 */
export function preparedAround<K extends string, R>(
  names: readonly K[],
  build: (slots: Record<K, Placeholder<K>>, body: SQL) => Select<R>,
): (values: Record<K, unknown>, body: string) => Select<R> {
  let made: { before: string; after: string; params: unknown[]; decode: Select<R>["decode"] } | undefined;
  return (values, body) => {
    if (!made) {
      const statement = build(slotsOf(names), sql.raw(BODY));
      const query = statement.toQuery();
      const [before, after, ...more] = query.sql.split(BODY);
      if (after === undefined || more.length > 0) throw new Error("preparedAround: the body must appear once");
      made = { before: before!, after, params: query.params, decode: statement.decode };
    }
    const { before, after, params, decode } = made;
    return { toQuery: () => ({ sql: before + body + after, params: fillPlaceholders(params, values) }), decode };
  };
}
