// The scroll selection cookie is written in the browser (storeSelection) and read on the server:
// the two encodings must agree (decision 011's contract).
import { describe, expect, it } from "vitest";
import { newId } from "../shared/index";
import { selectionCookie } from "./selection.server";
import { ALL_ECHOS, FOLLOWING, selectionCookieValue } from "./ui/selection";

describe("the selection cookie", () => {
  it.each([newId(), ALL_ECHOS, FOLLOWING])("the browser's value for %s is what the server reads and writes", async (id) => {
    expect(await selectionCookie.parse(`echo_scroll=${selectionCookieValue(id)}`)).toBe(id);
    expect((await selectionCookie.serialize(id)).split(";")[0]).toBe(`echo_scroll=${selectionCookieValue(id)}`);
  });
});
