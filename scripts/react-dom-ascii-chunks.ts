import type { Plugin } from "vite";

// A build-time change to react-dom's edge server renderer (docs/scaling.md, "Home SSR: the
// renderer's chunks"). Its `stringToChunk` turns every dynamic piece of markup (each attribute
// name and value, each text node) into bytes with `TextEncoder.encode`. In workerd that is a call
// into the runtime's C++ and a fresh ArrayBuffer each time: a home page makes a few thousand of
// them, and a CPU profile of home put more of the vertical's time there than in any other
// function of ours or React's. Short ASCII strings (nearly all of them: tag names, classes,
// ids, hrefs) are written into a Uint8Array in JavaScript instead, byte for byte what
// TextEncoder gives for ASCII; anything longer or with a non-ASCII character still goes to
// TextEncoder, so the bytes never differ.
//
// The plugin refuses to build if react-dom's source no longer has the function it replaces (an
// upgrade changed it): the renderer would still be correct, only slower, so the build says so.

/** The file the Worker's `react-dom/server` resolves to (its `workerd` export condition). */
export const EDGE_SERVER_FILE = /react-dom[\\/]cjs[\\/]react-dom-server\.edge\.production\.js$/;

const ORIGINAL = /function stringToChunk\(content\) \{\s*return textEncoder\.encode\(content\);\s*\}/;

/** Longest string written in JavaScript; past it, the runtime's encoder is the faster. */
export const ASCII_LIMIT = 256;

const REPLACEMENT = `function stringToChunk(content) {
  var length = content.length;
  if (length > ${ASCII_LIMIT}) return textEncoder.encode(content);
  var bytes = new Uint8Array(length);
  for (var i = 0; i < length; i++) {
    var code = content.charCodeAt(i);
    if (code > 0x7f) return textEncoder.encode(content);
    bytes[i] = code;
  }
  return bytes;
}`;

/** The renderer's source with the ASCII path in `stringToChunk`; throws if the function is gone. */
export function withAsciiChunks(source: string): string {
  if (!ORIGINAL.test(source)) {
    throw new Error("react-dom-ascii-chunks: react-dom's edge renderer no longer has `stringToChunk` as expected; check scripts/react-dom-ascii-chunks.mjs against the new react-dom");
  }
  return source.replace(ORIGINAL, REPLACEMENT);
}

/** The function the replacement defines, for tests: `(textEncoder) => stringToChunk`. */
export function replacementFor(textEncoder: TextEncoder): (content: string) => Uint8Array {
  return new Function("textEncoder", `${REPLACEMENT}\nreturn stringToChunk;`)(textEncoder) as (content: string) => Uint8Array;
}

export function reactDomAsciiChunks(): Plugin {
  return {
    name: "echo:react-dom-ascii-chunks",
    apply: "build",
    transform(code: string, id: string) {
      if (!EDGE_SERVER_FILE.test(id)) return null;
      return { code: withAsciiChunks(code), map: null };
    },
  };
}
