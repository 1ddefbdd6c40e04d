import { createHash, randomBytes } from 'node:crypto';

/** A fixed prefix lets secret scanners recognise a leaked key. */
export const API_KEY_PREFIX = 'bmk_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 43; // base62 of 32 random bytes fits in 43 characters
const CHECK_LENGTH = 6;

function base62(bytes: Buffer, length: number): string {
  let n = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  for (let i = 0; i < length; i++) {
    out = ALPHABET[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out;
}

function checksum(body: string): string {
  return base62(createHash('sha256').update(body).digest().subarray(0, 8), CHECK_LENGTH);
}

/** A new key: prefix, 32 random bytes in base62, and a checksum over them. */
export function generateApiKey(): string {
  const body = base62(randomBytes(32), BODY_LENGTH);
  return `${API_KEY_PREFIX}${body}${checksum(body)}`;
}

/**
 * True when the key has our shape and its checksum matches, so a typo or a random token is
 * turned away without touching the database.
 */
export function isWellFormedApiKey(key: string): boolean {
  if (key.length !== API_KEY_PREFIX.length + BODY_LENGTH + CHECK_LENGTH || !key.startsWith(API_KEY_PREFIX)) {
    return false;
  }
  const body = key.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + BODY_LENGTH);
  if (![...body].every((c) => ALPHABET.includes(c))) return false;
  return checksum(body) === key.slice(API_KEY_PREFIX.length + BODY_LENGTH);
}

/** Only this hash is stored: a database leak does not leak usable keys. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
