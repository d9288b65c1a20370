import { createHash, randomBytes } from 'node:crypto';

/**
 * API keys: `ak_live_` + 192 random bits in base62 + a 6-character base62 CRC-32 checksum, so a
 * secret scanner can recognise a real key offline and a mistyped key is refused without a
 * database lookup. The database keeps the SHA-256 hash and the last four characters.
 */
export const API_KEY_PREFIX = 'ak_live_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 33; // 192 bits in base62
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);

export function base62(bytes: Buffer, length: number): string {
  let n = BigInt(`0x${bytes.toString('hex') || '0'}`);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(length, '0').slice(-length);
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[i] = c >>> 0;
  }
  return table;
})();

export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, 'utf8')) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function checksum(body: string): string {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(crc32(body));
  return base62(b, CHECKSUM_LENGTH);
}

export function generateApiKey(): string {
  const body = base62(randomBytes(24), BODY_LENGTH);
  return `${API_KEY_PREFIX}${body}${checksum(body)}`;
}

/** Shape and checksum are right (says nothing about whether the key exists). */
export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const rest = key.slice(API_KEY_PREFIX.length);
  return checksum(rest.slice(0, BODY_LENGTH)) === rest.slice(BODY_LENGTH);
}

export function sha256(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** An opaque random secret with a readable prefix (OAuth client ids and secrets, tokens, codes). */
export function randomSecret(prefix: string, bytes = 32): string {
  return `${prefix}${base62(randomBytes(bytes), Math.ceil((bytes * 8) / 5.954))}`;
}
