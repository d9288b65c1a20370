import { PreparedEntity } from '../entities/prepare-entities';
import { NameProbe } from '../text/scan-text';
import { isWordCharAt } from '../text/word-chars';
import { describeName, NameInfo } from './name-info';

/**
 * The tracked names of one entity set, compiled once: every name in lower case (’ read as '), bucketed by its first
 * character and, in each bucket, longest first. The shared text scan asks `matchAt` only at word boundaries whose
 * character starts some name; a name matches when its characters follow (a space in the name matching any run of
 * spaces or tabs, an apostrophe either ' or ’ or ‘) and no word character comes after it. Longest first gives
 * leftmost-longest, non-overlapping matches ("Apple Music" over "Apple"), as one alternation of all names would.
 * Time: the characters compared are bounded by the names' total length per candidate start (no backtracking).
 */
export class NameMatcher implements NameProbe {
  readonly startsName = new Uint8Array(65536);
  readonly startsPair = new Uint8Array(65536);
  readonly names: readonly NameInfo[];
  matchEnd = 0;
  private readonly buckets = new Map<number, number[]>();
  private readonly keys: string[];

  constructor(entities: readonly PreparedEntity[]) {
    const byLower = new Map<string, NameInfo>();
    // The brand's names first, then competitors in the given order: a name tracked twice goes to the first.
    const ordered = [...entities].sort((a, b) => (a.kind === b.kind ? a.index - b.index : a.kind === 'brand' ? -1 : 1));
    for (const e of ordered) {
      for (const n of e.names) {
        const info = describeName(e, n);
        const key = info.lower.replace(/[\u2018\u2019]/g, "'").replace(/\u00a0/g, ' ');
        if (key.length > 0 && !byLower.has(key)) byLower.set(key, info);
      }
    }
    this.names = [...byLower.values()];
    this.keys = [...byLower.keys()];
    const order = this.keys.map((_, i) => i).sort((a, b) => this.keys[b].length - this.keys[a].length || a - b);
    for (const i of order) {
      const key = this.keys[i];
      const first = key.charCodeAt(0);
      this.startsName[first] = 1;
      if (first === 39) {
        this.startsName[0x2018] = 1;
        this.startsName[0x2019] = 1;
      }
      // The first two characters, folded to their low bytes: a cheap filter before matchAt.
      const firsts = first === 39 ? [39, 0x18, 0x19] : [first & 0xff];
      const second = key.length > 1 ? key.charCodeAt(1) : -1;
      const seconds = second === -1 ? Array.from({ length: 256 }, (_, b) => b) : second === 32 ? [32, 9, 0xa0] : second === 39 ? [39, 0x18, 0x19] : [second & 0xff];
      for (const a of firsts) for (const b of seconds) this.startsPair[(a << 8) | b] = 1;
      let bucket = this.buckets.get(first);
      if (bucket === undefined) {
        bucket = [];
        this.buckets.set(first, bucket);
      }
      bucket.push(i);
    }
  }

  /** The NameInfo of a matched name index. */
  info(name: number): NameInfo {
    return this.names[name];
  }

  matchAt(lowered: string, pos: number): number {
    let first = lowered.charCodeAt(pos);
    if (first === 0x2019 || first === 0x2018) first = 39;
    const bucket = this.buckets.get(first);
    if (bucket === undefined) return -1;
    const len = lowered.length;
    for (let b = 0; b < bucket.length; b++) {
      const key = this.keys[bucket[b]];
      let p = pos;
      let ok = true;
      for (let k = 0; k < key.length; k++) {
        const want = key.charCodeAt(k);
        if (p >= len) {
          ok = false;
          break;
        }
        let got = lowered.charCodeAt(p);
        if (want === 32) {
          if (got !== 32 && got !== 9 && got !== 0xa0) {
            ok = false;
            break;
          }
          p++;
          while (p < len && ((got = lowered.charCodeAt(p)) === 32 || got === 9 || got === 0xa0)) p++;
          continue;
        }
        if (got === 0x2019 || got === 0x2018) got = 39;
        else if (got === 0xa0) got = 32;
        if (got !== want) {
          ok = false;
          break;
        }
        p++;
      }
      if (ok && !isWordCharAt(lowered, p)) {
        this.matchEnd = p;
        return bucket[b];
      }
    }
    return -1;
  }
}

/** The visible text in lower case, keeping every offset (characters whose lower case is longer are kept as they are). */
export function lowerForMatching(text: string): string {
  const lowered = text.toLowerCase();
  if (lowered.length === text.length) return lowered;
  const parts: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const l = text.charAt(i).toLowerCase();
    parts.push(l.length === 1 ? l : text.charAt(i));
  }
  return parts.join('');
}
