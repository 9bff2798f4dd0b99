import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ASCII_LIMIT, replacementFor, withAsciiChunks } from "../../scripts/react-dom-ascii-chunks";

const encoder = new TextEncoder();
const stringToChunk = replacementFor(encoder);

/** Strings of every kind the renderer meets, ill-formed Unicode included. */
function population(): string[] {
  const out = ["", "a", "class", "/echo/01m8abmtjvbez4zc7b5mvvsy8x", "&quot;", "\u007f", "\u0080", "é", "日本", "👍", "\ud800", "x\udc00y", "\u202e", "a\u0000b"];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
  const alphabets = ["abcXYZ019 <>&\"'=/-_", "abc\u00e9\u4e2d\ud83d\ude00\ud800\udfff\u0000", "\u007e\u007f\u0080\u07ff\u0800\uffff"];
  for (let i = 0; i < 3000; i++) {
    const alphabet = alphabets[i % alphabets.length]!;
    const length = [0, 1, 2, 17, 63, ASCII_LIMIT - 1, ASCII_LIMIT, ASCII_LIMIT + 1, 1000][next() % 9]!;
    let s = "";
    for (let j = 0; j < length; j++) s += alphabet[next() % alphabet.length];
    out.push(s);
  }
  return out;
}

describe("react-dom's stringToChunk with the ASCII path (scripts/react-dom-ascii-chunks.ts)", () => {
  it("gives exactly TextEncoder's bytes for every string, ASCII or not, well-formed or not", () => {
    for (const s of population()) {
      const got = stringToChunk(s);
      expect(got).toBeInstanceOf(Uint8Array);
      expect(Array.from(got), JSON.stringify(s)).toEqual(Array.from(encoder.encode(s)));
    }
  });

  it("applies to the installed react-dom's edge renderer (the build would refuse otherwise)", () => {
    const require = createRequire(import.meta.url);
    const file = path.join(path.dirname(require.resolve("react-dom/package.json")), "cjs", "react-dom-server.edge.production.js");
    const source = readFileSync(file, "utf8");
    const changed = withAsciiChunks(source);
    expect(changed).not.toBe(source);
    expect(changed).toContain("if (code > 0x7f) return textEncoder.encode(content);");
    // only the one function changes: the precomputed chunks still come from TextEncoder
    expect(changed).toContain("function stringToPrecomputedChunk(content) {\n  return textEncoder.encode(content);");
  });

  it("refuses a renderer whose stringToChunk is not the one it replaces", () => {
    expect(() => withAsciiChunks("function stringToChunk(content) { return content; }")).toThrow(/no longer has `stringToChunk`/);
  });
});
