// Ids that sort by creation time: 10 Crockford base32 chars of milliseconds, then 16 random
// chars (80 bits). Lexicographic order of ids equals creation order at millisecond precision,
// so (created_at, id) keyset pagination has a total, stable order.
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

export function newId(now: number = Date.now()): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let rand = "";
  for (const b of bytes) rand += ALPHABET[b % 32];
  return timePart(now) + rand;
}

export const ID_PATTERN = /^[0-9a-hjkmnp-tv-z]{26}$/;

export function isId(value: unknown): value is string {
  return typeof value === "string" && ID_PATTERN.test(value);
}

function timePart(ms: number): string {
  let time = "";
  let t = Math.max(0, Math.floor(ms));
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  return time;
}

/** The smallest id created at or after `ms`: created_at bounds become id ranges on an index. */
export const idFloor = (ms: number) => timePart(ms) + "0".repeat(16);
/** The largest id created at or before `ms`. */
export const idCeil = (ms: number) => timePart(ms) + "z".repeat(16);

/** When an id was made (its first 10 characters): what the feed engine's id bounds compare. */
export function idTime(id: string): number {
  let ms = 0;
  for (const ch of id.slice(0, 10)) ms = ms * 32 + ALPHABET.indexOf(ch);
  return ms;
}
