import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isUserName, mentionedName } from "../shared/index";
import { parseSearch } from "./search-query";
import { linkify, type TextPart } from "./linkify";

const links = (text: string) => linkify(text).filter((p) => p.kind !== "text");
const joined = (parts: TextPart[]) => parts.map((p) => p.text).join("");

describe("linkify: web links", () => {
  it("links http and https URLs with their parsed href", () => {
    expect(links("see https://example.com/a?b=1#c and http://x.org")).toEqual([
      { kind: "url", text: "https://example.com/a?b=1#c", href: "https://example.com/a?b=1#c" },
      { kind: "url", text: "http://x.org", href: "http://x.org/" },
    ]);
  });

  it("leaves trailing sentence punctuation and unbalanced brackets out of the link", () => {
    expect(links("Read https://example.com/page.").map((p) => p.text)).toEqual(["https://example.com/page"]);
    expect(links("(see https://example.com/x), then").map((p) => p.text)).toEqual(["https://example.com/x"]);
    expect(links("https://en.wikipedia.org/wiki/Foo_(bar)!").map((p) => p.text)).toEqual(["https://en.wikipedia.org/wiki/Foo_(bar)"]);
    expect(links('"https://example.com/q?x=1",').map((p) => p.text)).toEqual(["https://example.com/q?x=1"]);
  });

  it("never links another scheme", () => {
    for (const text of ["javascript:alert(1)", "JaVaScRiPt:alert(1)", "data:text/html,<script>alert(1)</script>", "vbscript:msgbox", "ftp://x.org", "file:///etc/passwd", "//evil.example"]) {
      expect(links(text)).toEqual([]);
    }
    // a scheme hidden after http: is never a link's scheme: with no host it is no link at all,
    // and after a host it is only a path of an https URL
    expect(links("http://javascript:alert(1) https://x.org/javascript:alert(1)")).toEqual([
      { kind: "url", text: "https://x.org/javascript:alert(1)", href: "https://x.org/javascript:alert(1)" },
    ]);
  });

  it("needs a host", () => {
    expect(links("http:// and https://")).toEqual([]);
  });

  it("stops at markup, quotes, control and bidi characters, and encodes what it keeps", () => {
    const parts = links('https://x.org/<script>alert(1)</script> https://y.org/"onmouseover=x https://z.org/a\u202Etxt.exe');
    expect(parts.map((p) => p.text)).toEqual(["https://x.org/", "https://y.org/", "https://z.org/a"]);
    expect(links("https://x.org/caf\u00e9")[0]).toMatchObject({ href: "https://x.org/caf%C3%A9" });
  });
});

describe("linkify: @mentions", () => {
  it("links a user name to the by-name profile route", () => {
    expect(links("hi @alice_B.c-d!")).toEqual([
      { kind: "mention", text: "@alice_B.c-d", userName: "alice_B.c-d", href: "/user/by-name/alice_B.c-d" },
    ]);
  });

  it("drops a sentence's full stop, skips e-mail addresses, paths and names too long to exist", () => {
    expect(links("thanks @bob.").map((p) => p.text)).toEqual(["@bob"]);
    expect(links("mail bob@example.com or x/@bob or @@bob")).toEqual([]);
    expect(links(`@${"a".repeat(31)}`)).toEqual([]);
    expect(links(`@${"a".repeat(30)}`)).toHaveLength(1);
    expect(links("@ alone, @. and @é")).toEqual([]);
  });
});

describe("user names: one rule for sign-up, mentions and search (issue 28)", () => {
  it("a name starts and ends with a letter, digit or _, with . and - only inside, never ..", () => {
    for (const ok of ["a", "_", "A9", "a.b", "a-b", "a_b_", "_a", "a.b-c_d", "x".repeat(30), "a-.b", "a--b"]) expect(isUserName(ok), ok).toBe(true);
    for (const bad of ["", ".", "..", "...", "a.", "a-", ".a", "-a", "a..b", "a..", "x".repeat(31), "é", "a b", "a/b"]) expect(isUserName(bad), bad).toBe(false);
  });

  it("a mention reads up to an ellipsis and without trailing dots and hyphens", () => {
    expect(links("so @a.. and @bob...and @carol-, @dan.")).toEqual([
      { kind: "mention", text: "@a", userName: "a", href: "/user/by-name/a" },
      { kind: "mention", text: "@bob", userName: "bob", href: "/user/by-name/bob" },
      { kind: "mention", text: "@carol", userName: "carol", href: "/user/by-name/carol" },
      { kind: "mention", text: "@dan", userName: "dan", href: "/user/by-name/dan" },
    ]);
    expect(links("@a..b").map((p) => p.text)).toEqual(["@a"]);
    // no name starts with a dot or a hyphen: these mention no one, and never `.` or `..`
    expect(links("@.bob @-bob @.. @. @-")).toEqual([]);
    expect(mentionedName("..")).toBeNull();
    expect(mentionedName("a.b.")).toBe("a.b");
  });

  // every assertion below holds for every generated case: valid names are built from the rule's
  // own description (not filtered through isUserName), so no case skips its check
  const word = fc.stringMatching(/^[A-Za-z0-9_]{1,4}$/);
  const validName = fc
    .tuple(word, fc.array(fc.tuple(fc.constantFrom(".", "-", "-.", ".-", "--"), word), { maxLength: 4 }))
    .map(([first, rest]) => first + rest.map(([sep, w]) => sep + w).join(""))
    .filter((name) => name.length <= 30);
  const mentionedNames = (text: string) => links(text).flatMap((p) => (p.kind === "mention" ? [p.userName] : []));
  const searchedNames = (text: string) => parseSearch(text).flatMap((t) => (t.kind === "user" ? [t.userName] : []));

  it("a valid name is always mentioned exactly, and searched for, whatever punctuation follows", () => {
    fc.assert(
      fc.property(validName, fc.constantFrom("", ".", "..", "...", "-", ", x", "!"), (name, after) => {
        expect(isUserName(name), name).toBe(true);
        expect(mentionedNames(`hi @${name}${after}`)).toEqual([name]);
      }),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(validName, fc.constantFrom("", ".", ".."), (name, after) => {
        expect(parseSearch(`@${name}${after}`)).toEqual([{ kind: "user", userName: name }]);
      }),
      { numRuns: 1000 },
    );
  });

  it("whatever linkify or search reads as a name is one sign-up could create", () => {
    const nameChars = fc.string({ unit: fc.constantFrom(..."ab_.-9Z"), minLength: 1, maxLength: 32 });
    fc.assert(
      fc.property(nameChars, fc.constantFrom("", ".", "..", "...", "-", ", x", "!"), (name, after) => {
        const read = [...mentionedNames(`hi @${name}${after}`), ...searchedNames(`@${name}${after}`)];
        expect(read.filter((n) => !isUserName(n))).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("linkify: #tags", () => {
  it("links a tag to its normalised tag page, keeping the text as written", () => {
    expect(links("Loving #TypeScript and #Café_au-lait")).toEqual([
      { kind: "tag", text: "#TypeScript", tag: "typescript", href: "/tag/typescript" },
      { kind: "tag", text: "#Café_au-lait", tag: "café_au-lait", href: `/tag/${encodeURIComponent("café_au-lait")}` },
    ]);
    expect(links("#日本語")).toMatchObject([{ tag: "日本語", href: `/tag/${encodeURIComponent("日本語")}` }]);
  });

  it("skips character references, mid-word #, lone # and tags longer than tags may be", () => {
    expect(links("&#60;script&#62; C#sharp # ## x")).toEqual([]);
    expect(links(`#${"t".repeat(31)}`)).toEqual([]);
    expect(links(`#${"t".repeat(30)}`)).toHaveLength(1);
  });

  it("a # inside a URL belongs to the URL", () => {
    expect(links("https://x.org/#frag")).toMatchObject([{ kind: "url", text: "https://x.org/#frag" }]);
  });
});

describe("linkify: the text is kept whole", () => {
  const hostile = [
    "<script>alert(1)</script> <img src=x onerror=alert(1)>",
    "\u202Egnp.exe @bob #tag https://x.org\u202C",
    "🏳️‍🌈 @alice 👨‍👩‍👧 #emoji https://example.com/😀",
    "@".repeat(500) + "#".repeat(500),
    "a".repeat(990) + " @bob",
    "https://x.org/" + "(".repeat(400) + ")".repeat(400),
  ];
  it("joins back to the input exactly, whatever it holds", () => {
    for (const text of hostile) expect(joined(linkify(text))).toBe(text);
  });

  it("is plain text when there is nothing to link", () => {
    expect(linkify("just words")).toEqual([{ kind: "text", text: "just words" }]);
    expect(linkify("")).toEqual([]);
  });

  it("finishes quickly on long hostile input", () => {
    const long = ("http://x" + "a.".repeat(100) + " @" + "b.".repeat(50) + " #" + "c".repeat(40) + " ").repeat(200);
    const started = Date.now();
    expect(joined(linkify(long))).toBe(long);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
