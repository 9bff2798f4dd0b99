import path from "node:path";
import { RuleTester } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";
import rule from "../../eslint/module-boundaries.js";

const root = path.resolve(import.meta.dirname, "../..");
const options = [{ root, allow: { shared: [], auth: ["shared"], echo: ["shared", "auth"] } }];
const file = (rel: string) => path.join(root, rel);

RuleTester.describe = describe;
RuleTester.it = it;
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });

tester.run("module-boundaries", rule, {
  valid: [
    { filename: file("routes/pages/home.tsx"), code: 'import { x } from "~/modules/echo/index";', options },
    { filename: file("routes/pages/home.tsx"), code: 'import { x } from "~/modules/echo/index.server";', options },
    { filename: file("modules/echo/feed.ts"), code: 'import { x } from "./ui/list";', options },
    { filename: file("modules/echo/feed.ts"), code: 'import { x } from "../auth/index.server";', options },
    { filename: file("modules/echo/feed.ts"), code: 'import { useState } from "react";', options },
  ],
  invalid: [
    {
      filename: file("routes/pages/home.tsx"),
      code: 'import { x } from "~/modules/echo/echo.server";',
      options,
      errors: [{ message: 'Import modules/echo through its index.ts or index.server.ts, not "~/modules/echo/echo.server"' }],
    },
    {
      filename: file("modules/echo/feed.ts"),
      code: 'export { y } from "../auth/session.server";',
      options,
      errors: 1,
    },
    {
      filename: file("modules/auth/auth.ts"),
      code: 'import { x } from "../echo/index";',
      options,
      errors: [{ message: 'modules/auth may not depend on modules/echo (see the allow-list in eslint.config.js and docs/architecture.md "Modules")' }],
    },
  ],
});

describe("allow-list", () => {
  it("refuses a cyclic allow-list", () => {
    const context = { options: [{ root, allow: { a: ["b"], b: ["c"], c: ["a"] } }], filename: file("x.ts") };
    expect(() => rule.create(context as never)).toThrow(/cycle in allow-list: a → b → c → a/);
  });
});
