import { describe, expect, it } from "vitest";
import { illFormedField } from "./validation";

describe("illFormedField", () => {
  it("names the first ill-formed field, keys included", () => {
    expect(illFormedField({ name: "ok", feedConfig: { includedTags: ["a", "b\ud800"] } })).toBe("feedConfig.includedTags");
    expect(illFormedField({ ["k\udc00"]: 1 })).toBe("Request body (a key)");
    expect(illFormedField({ a: "x", b: ["y", { c: "z" }] })).toBeNull();
  });

  it("walks a body nested 100,000 levels deep without overflowing the stack", () => {
    const deep = JSON.parse(`${'{"a":'.repeat(100_000)}"\ud800"${"}".repeat(100_000)}`);
    expect(illFormedField(deep)).toBe(Array(100_000).fill("a").join("."));
    const deepArrays = JSON.parse(`${"[".repeat(100_000)}1${"]".repeat(100_000)}`);
    expect(illFormedField(deepArrays)).toBeNull();
  });
});
