// Row decoding: a selection's rows come from D1 as the driver's values; the schema's columns say
// which of them change (JSON text → arrays, integer booleans → booleans, timestamps), exactly as
// Drizzle's own select decodes them. Kept apart from the statements so a reader of either sees
// one idea.
import { Column, type SQL } from "drizzle-orm";

/** A flat selection: result key → schema column, or a typed `sql<T>` expression. */
export type Fields = Record<string, Column | SQL | SQL.Aliased>;

type Row = Record<string, unknown>;

// a column that keeps the driver's value as it is (text, a plain integer) needs no decoding pass
const decodes = (field: Fields[string]): field is Column => field instanceof Column && field.mapFromDriverValue !== Column.prototype.mapFromDriverValue;

/** The decoder of a selection's rows: changes them in place and returns them, typed. */
export function decoderOf<R>(fields: Fields): (rows: Row[]) => R[] {
  const decoders = Object.entries(fields).flatMap(([key, field]) => (decodes(field) ? [[key, field] as const] : []));
  return (rows) => {
    if (decoders.length > 0) {
      for (const row of rows) {
        for (const [key, column] of decoders) if (row[key] !== null) row[key] = column.mapFromDriverValue(row[key]);
      }
    }
    return rows as R[];
  };
}
