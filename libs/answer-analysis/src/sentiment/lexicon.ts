import afinn from 'wink-sentiment/src/afinn-en-165.js';
import { hashWord } from '../text/scan-text';

/**
 * Word valences on the AFINN scale (-5..5): AFINN-165 (Nielsen; shipped with wink-sentiment), overlaid with a small
 * lexicon of buyer-advice language that AFINN lacks or weighs as everyday speech: recommendations and warnings
 * ("overkill", "skip", "pricey", "breach") and product praise ("polished", "intuitive", "reliable").
 */
const BUYER_ADVICE: Readonly<Record<string, number>> = {
  // recommendations and praise
  recommend: 3, recommended: 3, recommends: 3, recommendation: 1, favourite: 2, favorite: 2, standout: 3, ideal: 3, solid: 2,
  reliable: 2, reliably: 2, dependable: 2, polished: 2, intuitive: 2, generous: 2, affordable: 2, cheaper: 1, cheapest: 1,
  inexpensive: 1, value: 1, bargain: 2, fast: 1, faster: 1, fastest: 2, smooth: 2, easy: 2, easiest: 2, easier: 1, simple: 1,
  versatile: 2, flexible: 2, robust: 2, secure: 1, safest: 2, safer: 1, audited: 1, transparent: 1, roomy: 1, roomier: 1,
  comfortable: 2, plush: 1, handy: 2, beloved: 3, praised: 2, proven: 2, consistently: 1, stylish: 2, spacious: 1, quick: 1,
  'class-leading': 3, 'best-in-class': 3, 'well-rounded': 2, 'user-friendly': 2, 'beginner-friendly': 2, 'fee-free': 1,
  pick: 1, wins: 2, unblocks: 1, unblock: 1, capable: 2, refined: 2, pleasant: 2, excels: 3, 'all-rounder': 2, leader: 2,
  loved: 3, responsive: 1, forgiving: 1, strongest: 3, stronger: 2, top: 2, premium: 1, customisable: 1, customizable: 1,
  // warnings and criticism
  avoid: -3, avoiding: -2, skip: -2, overkill: -2, expensive: -2, pricey: -2, pricier: -1, costly: -2, steep: -1, steeply: -1,
  breach: -3, breached: -3, breaches: -3, complaint: -2, complaints: -2, outage: -2, outages: -2, bugs: -2, buggy: -2, laggy: -2,
  dated: -1, clunky: -2, cramped: -2, lacks: -2, lacking: -2, lack: -1, weaker: -2, weak: -2, unreliable: -3, inconsistent: -2,
  frozen: -1, throttled: -2, leak: -2, leaks: -2, leaking: -2, malware: -3, recall: -1, recalls: -1, issues: -1, cautious: -2,
  unclear: -1, overwhelming: -1, overwhelm: -1, stingy: -2, awkward: -1, shallower: -1, slower: -1, slow: -1, fading: -1,
  unforgiving: -2, criticised: -2, criticized: -2, downside: -1, downsides: -1, drawback: -1, drawbacks: -1, stolen: -2,
  theft: -2, thefts: -2, compromised: -3, insecure: -3, incomplete: -1, caveat: -1, caveats: -1, overpriced: -3, basic: -1,
  plain: -1, narrow: -1, cluttered: -2, confusing: -2, complicated: -2, complex: -1, difficult: -1, harder: -1, hard: -1,
  frustrating: -2, bloated: -2, worse: -2, worst: -3, cheap: 0, free: 1, fees: 0, fee: 0, cut: 0, lower: 0, higher: 0, heavy: -1,
  deters: -2, delayed: -2, modest: -1, small: 0, smaller: 0, tighter: -1, awful: -3, poorly: -2, poor: -2, scorch: -2,
  // everyday AFINN words that carry no judgement in buyer advice ("at no cost", "things like", "work on every device")
  no: 0, like: 0, likes: 0, work: 0, works: 0, saved: 0, save: 0, emergency: 0, share: 0, shared: 0, want: 0, wants: 0,
  matter: 0, matters: 0, please: 0, charges: 0, charge: 0, pay: 0, paid: 0, limit: 0, limits: 0, allow: 0, allows: 0, yes: 0,
  true: 0, carefully: -1, warm: 0, demand: 0, kind: 0, help: 1, helps: 1, support: 1, supports: 1,
  // product praise and complaints
  benchmark: 2, bouncy: 1, lighter: 1, lightweight: 1, cushioned: 1, supportive: 2, durable: 2, springy: 1, lively: 1, stable: 1,
  seamless: 2, effortless: 2, convenient: 2, 'feature-rich': 2, efficient: 2, sturdy: 2, 'well-built': 2, choose: 1, go: 0,
  heavier: -1, stiff: -1, wears: -1, flattening: -1, noisy: -2, fragile: -2, flimsy: -2, hassle: -2, gimmicky: -2,
  reputable: 2, verified: 1, refunds: 1, discounted: 1, friendlier: 2, trusted: 2, popular: 1, 'go-to': 2, unmatched: 3, slick: 2,
  lag: -1, lags: -1, ads: -1, limited: -1,
  thin: -1, strain: -2, concern: -1, concerns: -1, problems: -2, problem: -2, capped: -1, stricter: -1, worried: -2, bothers: -2,
};

/** Roles of function words in the scoring rules (bit flags of a lexicon entry). */
export const NEGATOR = 1;
export const BOOSTER = 2;
export const DAMPENER = 4;
export const CONTRAST = 8;
export const CONCESSION = 16;
export const CONDITION = 32;
export const COMPARISON = 64;
export const FILLER = 128;
export const TO_OR_WITH = 256;
export const COMPARED = 512;
/** Verbs of protection and detection ("flags", "protects against", "alerts you to"): threat words after them describe a feature. */
export const GUARDS = 1024;
/** Recommendation words ("recommend", "pick", "best"): counted as recommendations, or as warnings when negated. */
export const RECOMMENDS = 2048;
/** Warning words ("avoid", "skip", "beware"). */
export const WARNS = 4096;
/** Words that mark a sentence as the answer's verdict ("bottom line", "overall", "verdict"). */
export const VERDICT = 8192;
/** Words that frame a sentence as a survey of options ("include", "alternatives", "such as"). */
export const SURVEY = 16384;

const ROLES: ReadonlyArray<readonly [number, readonly string[]]> = [
  [NEGATOR, ['not', 'no', 'never', 'none', 'nothing', 'neither', 'nor', 'without', 'cannot', 'hardly', 'barely', 'rarely', 'seldom', 'lacks', 'lacking']],
  [BOOSTER, ['very', 'extremely', 'highly', 'really', 'particularly', 'especially', 'incredibly', 'genuinely', 'far', 'much', 'super', 'truly', 'exceptionally', 'remarkably', 'consistently', 'clearly']],
  [DAMPENER, ['slightly', 'somewhat', 'fairly', 'relatively', 'bit', 'little', 'marginally', 'occasionally', 'partly', 'mostly', 'reasonably']],
  [CONTRAST, ['but', 'however', 'yet']],
  [CONCESSION, ['although', 'though', 'while', 'whereas', 'despite', 'except', 'unless']],
  [CONDITION, ['if', 'when', 'whether', 'once']],
  [COMPARISON, ['than', 'vs', 'versus', 'over', 'from', 'beside', 'besides']],
  [FILLER, ['and', 'or', 'the', 'a', 'an', 'both', 'either', 'with', 'plus']],
  [TO_OR_WITH, ['to', 'with']],
  [COMPARED, ['compared', 'similar']],
  [NEGATOR, ['less', 'fewer']],
  [RECOMMENDS, ['recommend', 'recommended', 'recommends', 'pick', 'picks', 'choose', 'best', 'ideal', 'standout', 'winner', 'go-to', 'favourite', 'favorite', 'top', 'worth', 'shortlist', 'prefer', 'preferred']],
  [WARNS, ['avoid', 'avoiding', 'skip', 'steer', 'beware', 'caution', 'wary', 'risky', 'reconsider', 'cautious']],
  [VERDICT, ['verdict', 'bottom', 'overall', 'summary', 'conclusion', 'ultimately', 'recommendation', 'winner', 'tl;dr', 'tldr', 'short']],
  [SURVEY, ['include', 'includes', 'including', 'alternatives', 'alternative', 'options', 'players', 'others', 'such', 'also', 'like', 'e.g']],
  [GUARDS, ['flags', 'flag', 'flagged', 'flagging', 'detects', 'detect', 'detection', 'protects', 'protect', 'protection', 'against', 'alerts', 'alert', 'warns', 'warn', 'monitors', 'monitor', 'monitoring', 'blocks', 'block', 'blocking', 'scans', 'scan', 'checks', 'check', 'prevents', 'prevent', 'guards', 'notifies', 'spots', 'catches', 'reports']],
];

/**
 * Two-word phrases whose meaning in buyer advice is not the sum of their words: recommendations ("my pick", "for
 * less", "stands out") and warnings ("falls short", "steer clear"). The valence replaces both words'.
 */
export const PHRASES: ReadonlyArray<readonly [string, string, number]> = [
  ['for', 'less', 2], ['lower', 'price', 2], ['low', 'price', 2], ['lower', 'cost', 2], ['low', 'cost', 2], ['better', 'value', 3],
  ['best', 'value', 3], ['great', 'value', 3], ['good', 'value', 3], ['my', 'pick', 3], ['top', 'pick', 3], ['top', 'choice', 3],
  ['solid', 'choice', 3], ['safe', 'choice', 2], ['stands', 'out', 2], ['stand', 'out', 2], ['go', 'with', 1], ['worth', 'considering', 2],
  ['good', 'fit', 2], ['better', 'fit', 2], ['best', 'fit', 3], ['falls', 'short', -2], ['fall', 'short', -2], ['steer', 'clear', -3],
  ['lag', 'behind', -2], ['lags', 'behind', -2], ['to', 'beat', 3], ['close', 'behind', 2], ['no', 'longer', 0], ['no', 'fees', 2], ['no-logs', 'practices', 1],
];


/**
 * The lexicon as an open-addressing hash table keyed by the FNV-1a hash the text scan computes for every word, so a
 * word is looked up without slicing it out of the text: slot → entry, verified against the entry's characters.
 */
export class Lexicon {
  readonly words: string[] = [];
  readonly valence: number[] = [];
  readonly flags: number[] = [];
  /** Phrase valences keyed by first entry × 65536 + second entry. */
  readonly phrases = new Map<number, number>();
  private readonly mask: number;
  /** Slot k holds [2k] the word's hash and [2k + 1] its entry (-1: empty), side by side: one cache line per probe. */
  private readonly slots: Int32Array;
  /**
   * A one-bit-per-bucket prefilter on the hash's high 16 bits (8 KiB, stays in the L1 cache): most words of an answer
   * are not in the lexicon, and for them one bit read replaces a probe into the table (a likely cache miss).
   */
  private readonly present = new Uint8Array(8192);

  constructor(entries: ReadonlyMap<string, { valence: number; flags: number }>) {
    let size = 1024;
    while (size < entries.size * 4) size *= 2;
    this.mask = size - 1;
    this.slots = new Int32Array(2 * size).fill(-1);
    for (const [word, e] of entries) {
      const id = this.words.length;
      this.words.push(word);
      this.valence.push(e.valence);
      this.flags.push(e.flags);
      const h = hashWord(word);
      let slot = h & this.mask;
      while (this.slots[2 * slot + 1] !== -1) slot = (slot + 1) & this.mask;
      this.slots[2 * slot] = h;
      this.slots[2 * slot + 1] = id;
      this.present[h >>> 19] |= 1 << ((h >>> 16) & 7);
    }
  }

  /** The entry of the word lowered[start, end) whose hash is `hash`, or -1. */
  find(lowered: string, start: number, end: number, hash: number): number {
    if ((this.present[hash >>> 19] & (1 << ((hash >>> 16) & 7))) === 0) return -1;
    let slot = hash & this.mask;
    const slots = this.slots;
    for (;;) {
      const id = slots[2 * slot + 1];
      if (id === -1) return -1;
      if (slots[2 * slot] === hash) {
        const w = this.words[id];
        if (w.length === end - start) {
          let same = true;
          for (let k = 0; k < w.length; k++) {
            let c = lowered.charCodeAt(start + k);
            if (c === 0x2019) c = 39;
            if (c !== w.charCodeAt(k)) {
              same = false;
              break;
            }
          }
          if (same) return id;
        }
      }
      slot = (slot + 1) & this.mask;
    }
  }

  /** The entry of a lower-case word, or -1 (for tests and tools). */
  lookup(word: string): number {
    return this.find(word, 0, word.length, hashWord(word));
  }
}

function buildLexicon(): Lexicon {
  const entries = new Map<string, { valence: number; flags: number }>();
  const set = (w: string, valence: number | null, flags: number): void => {
    const e = entries.get(w) ?? { valence: 0, flags: 0 };
    entries.set(w, { valence: valence ?? e.valence, flags: e.flags | flags });
  };
  for (const [w, v] of Object.entries(afinn)) set(w, v, 0);
  for (const [w, v] of Object.entries(BUYER_ADVICE)) set(w, v, 0);
  for (const [flag, words] of ROLES) for (const w of words) set(w, null, flag);
  for (const [a, b] of PHRASES) {
    set(a, null, 0);
    set(b, null, 0);
  }
  const lexicon = new Lexicon(entries);
  for (const [a, b, v] of PHRASES) lexicon.phrases.set(lexicon.lookup(a) * 65536 + lexicon.lookup(b), v);
  return lexicon;
}

export const LEXICON: Lexicon = buildLexicon();

/** The valence of a lower-case word, or 0. Hyphenated words fall back to their last part. */
export function wordValence(word: string): number {
  const id = LEXICON.lookup(word);
  if (id >= 0) return LEXICON.valence[id];
  const dash = word.lastIndexOf('-');
  if (dash > 0 && dash < word.length - 1) {
    const part = LEXICON.lookup(word.slice(dash + 1));
    return part >= 0 ? LEXICON.valence[part] : 0;
  }
  return 0;
}
