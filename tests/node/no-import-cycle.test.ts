// The file-level cycle rule over a small tree written to a temporary folder: the rule reads the
// files an import leads to from disk, as it does in the project.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { RuleTester } from "eslint";
import tseslint from "typescript-eslint";
import { afterAll, describe, it } from "vitest";
import rule from "../../eslint/no-import-cycle.js";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "import-cycle-"));
const files: Record<string, string> = {
  // a → b → c ⇢ a (the last edge type-only): a circle all the same
  "m/a.server.ts": 'import { b } from "./b.server";\nexport const a = b;',
  "m/b.server.ts": 'import { c } from "~/m/c";\nexport const b = c;',
  "m/c.ts": 'import type { A } from "./a.server";\nexport const c = 1 as unknown as A;',
  // row.ts is read by both, and imports neither: no circle
  "n/row.ts": "export const row = 1;",
  "n/reads.ts": 'import { row } from "./row";\nexport const reads = row;',
  "n/writes.ts": 'import { row } from "./row";\nimport { reads } from "./reads";\nexport const writes = row + reads;',
  "n/lazy.ts": 'export const lazy = () => import("./lazy-back");',
  "n/lazy-back.ts": 'import { lazy } from "./lazy";\nexport const back = lazy;',
  "n/index.ts": 'export * from "./writes";',
};
for (const [rel, text] of Object.entries(files)) {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const options = [{ root }];
const at = (rel: string) => ({ filename: path.join(root, rel), code: files[rel]!, options });

RuleTester.describe = describe;
RuleTester.it = it;
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });

tester.run("no-import-cycle", rule, {
  valid: [at("n/row.ts"), at("n/reads.ts"), at("n/writes.ts"), at("n/index.ts"), { ...at("n/reads.ts"), code: 'import { x } from "react";' }],
  invalid: [
    {
      ...at("m/a.server.ts"),
      errors: [{ message: 'Import cycle: m/a.server.ts → m/b.server.ts → m/c.ts → m/a.server.ts. Move what both need into a file of its own (docs/architecture.md "No cycles")' }],
    },
    { ...at("m/b.server.ts"), errors: 1 },
    { ...at("m/c.ts"), errors: [{ message: /^Import cycle: m\/c\.ts → m\/a\.server\.ts → m\/b\.server\.ts → m\/c\.ts\./ }] },
    { ...at("n/lazy.ts"), errors: 1 },
  ],
});
