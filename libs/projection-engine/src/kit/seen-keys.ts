/**
 * Which keys a pass may have met before, in fixed memory (a Bloom filter): `add(key)` answers
 * false only for a key never added, true for every key added before and, rarely, for a new one
 * (a false positive; about 0.4% with 1.2 million keys in the default 8 MB, more as keys grow past
 * that). A bulk rebuild writes a key it has certainly not met straight into its table and routes the
 * others through staging, where SQL settles them (a false positive only costs a staged row).
 */
export class SeenKeys {
  private readonly bits: Int32Array;
  private readonly mask: number;

  /** `log2Bits`: the filter's size, 2^log2Bits bits (26: 8 MB). */
  constructor(log2Bits = 26) {
    if (log2Bits < 5 || log2Bits > 31) throw new Error(`SeenKeys: 2^${log2Bits} bits is out of range`);
    this.bits = new Int32Array(2 ** (log2Bits - 5));
    this.mask = 2 ** log2Bits - 1;
  }

  /** Adds `key`; whether it may have been added before (false: certainly not). */
  add(key: string): boolean {
    // Two independent 32-bit hashes of the UTF-16 code units (FNV-1a and a multiplicative one), four probes h1 + i·h2.
    let h1 = 0x811c9dc5;
    let h2 = 0x9e3779b9;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995) ^ (h2 >>> 15);
    }
    h2 |= 1;
    let seen = true;
    for (let i = 0; i < 4; i++) {
      const bit = (h1 + Math.imul(i, h2)) & this.mask;
      const word = bit >>> 5;
      const flag = 1 << (bit & 31);
      if (!(this.bits[word] & flag)) {
        seen = false;
        this.bits[word] |= flag;
      }
    }
    return seen;
  }
}
