// Password hashing: scrypt from the Workers runtime's node:crypto (native code, not JS).
// OWASP's equivalent scrypt settings trade memory for passes; N=2^14 (16 MiB), r=8, p=5 is one
// of them and stays well inside a Worker's 128 MB. Cost measured in docs/decisions/002-passwords.md.
import { scrypt, randomBytes, timingSafeEqual } from "node:crypto";

const N = 2 ** 14;
const R = 8;
const P = 5;
const KEY_LENGTH = 32;
const MAX_MEM = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFC"), salt, KEY_LENGTH, { N: n, r, p, maxmem: MAX_MEM }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** A hash's cost: production's, or the test server's (below). */
export type HashCost = { n: number; r: number; p: number };
const PRODUCTION: HashCost = { n: N, r: R, p: P };
/**
 * The test server's cost (FAULT_INJECTION=1, which no deployment sets: docs/security.md): a
 * signup's hash was most of the API suite's server CPU (hundreds of users a run). A hash names
 * its own cost, so logins verify either kind; the production cost is held by the module test.
 */
const TEST_SERVER: HashCost = { n: 2 ** 10, r: 8, p: 1 };

/** The cost new hashes get on this deployment. */
export const hashCostOf = (env: { FAULT_INJECTION?: unknown }): HashCost => (String(env.FAULT_INJECTION) === "1" ? TEST_SERVER : PRODUCTION);

export async function hashPassword(password: string, { n, r, p }: HashCost = PRODUCTION): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, n, r, p);
  return `scrypt$${n}$${r}$${p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const key = await derive(password, Buffer.from(salt, "base64"), Number(n), Number(r), Number(p));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash nobody's password matches: login with an unknown name still pays one hash. */
export const DUMMY_HASH =
  "scrypt$16384$8$5$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
