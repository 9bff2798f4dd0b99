// Reading cookies through React Router's cookie API inside workerd: whatever a browser sends, a
// cookie either decodes to what its schema expects or is absent; nothing throws (issue 12).
import { createCookie } from "react-router";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { hasCookie, readCookie } from "./cookies.server";

const cookie = createCookie("echo_test");
const Schema = v.pipe(v.string(), v.minLength(1), v.maxLength(100));
const request = (header: string) => new Request("http://localhost/", { headers: { Cookie: header } });
const encoded = (value: unknown) => encodeURIComponent(btoa(JSON.stringify(value)));

describe("readCookie", () => {
  it("reads what cookie.serialize wrote, and absence as null", async () => {
    const written = (await cookie.serialize("hello")).split(";")[0]!;
    expect(await readCookie(request(`a=1; ${written}`), cookie, Schema)).toBe("hello");
    expect(await readCookie(request("a=1"), cookie, Schema)).toBeNull();
    expect(await readCookie(new Request("http://localhost/"), cookie, Schema)).toBeNull();
  });

  it.each([
    ["bad percent-encoding", "%E0%A4%A"],
    ["bad base64", "*not*base64*"],
    ["not JSON", encodeURIComponent(btoa("not json"))],
    ["ill-formed UTF-8", encodeURIComponent(btoa('"\xff\xfe"'))],
    ["the wrong shape", encoded({ value: "hello" })],
    ["too long for the schema", encoded("x".repeat(101))],
    ["huge", encoded("x".repeat(20_000))],
    ["empty", ""],
  ])("%s is no cookie, but is a cookie the request carries", async (_, value) => {
    expect(await readCookie(request(`echo_test=${value}`), cookie, Schema)).toBeNull();
    expect(await hasCookie(request(`echo_test=${value}`), cookie)).toBe(true);
  });

  it("a duplicated cookie: the first one counts, whichever is well-formed", async () => {
    expect(await readCookie(request(`echo_test=${encoded("first")}; echo_test=${encoded("second")}`), cookie, Schema)).toBe("first");
    expect(await readCookie(request(`echo_test=%; echo_test=${encoded("second")}`), cookie, Schema)).toBeNull();
  });

  it("another cookie's name is not this one", async () => {
    expect(await hasCookie(request(`echo_testing=${encoded("x")}; xecho_test=1`), cookie)).toBe(false);
  });
});
