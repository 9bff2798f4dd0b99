// `echos.mute_text` for echos written without it (decision 028: the post folds it; a writer that
// does not gets migration 0027's ASCII approximation from its insert trigger). A generated store
// writes its echos with the triggers dropped (scripts/bench-data.mjs), so it fills the column
// here, with the migration's own statement, for the echos that lack it; the heavy hider's bench
// (scripts/bench-hider.mjs) does the same on a store built before bench-data did.
import { readFileSync } from "node:fs";
import path from "node:path";
import { root } from "./lib.mjs";

/** Fill `mute_text` where it is NULL (node:sqlite database `db`); returns how many echos. */
export function fillMuteText(db) {
  const migration = readFileSync(path.join(root, "migrations", "0027_muted_words.sql"), "utf8");
  const fill = /UPDATE echos SET mute_text = [\s\S]*?\|\| ' ';/.exec(migration)?.[0];
  if (!fill) throw new Error("mute-text: no mute_text statement in migration 0027");
  return Number(db.prepare(`${fill.slice(0, -1)} WHERE mute_text IS NULL`).run().changes);
}
