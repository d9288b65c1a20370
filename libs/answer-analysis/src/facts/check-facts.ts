/** Registered facts of a brand that answers can be checked against (DESIGN §14, accuracy). */
export interface BrandFacts {
  readonly foundedYear?: number | null;
  readonly startingPrice?: { readonly amount: number; readonly currency: 'USD' | 'EUR' | 'GBP' } | null;
  readonly headquarters?: string | null;
}

export type FactName = 'foundedYear' | 'startingPrice' | 'headquarters';

/** A checkable claim an answer makes about the brand, and whether it agrees with the registered fact. */
export interface FactClaim {
  readonly fact: FactName;
  readonly claimed: string;
  readonly expected: string;
  readonly agrees: boolean;
  /** The sentence that makes it. */
  readonly sentence: string;
}

const FOUNDED = /\b(?:founded|established|started|launched|created|incorporated)\b[^.;:!?]{0,40}?\b(1[89]\d\d|20\d\d)\b/gi;
const PRICE = /\b(?:starts?|starting|begins?|beginning|priced|costs?|plans? (?:start|begin))\b(?: (?:at|from))?(?: (?:just|only|around|about|roughly))? ?([$€£])\s?(\d{1,6}(?:[.,]\d{1,2})?)/gi;
const PRICE_FROM = /\b(?:from|as low as)(?: (?:just|only))? ?([$€£])\s?(\d{1,6}(?:[.,]\d{1,2})?)/gi;
const HEADQUARTERS = /\b(?:headquartered|based|headquarters (?:is|are))\s+(?:in|out of)\s+([A-Z][\w.'-]*(?:,? [A-Z][\w.'-]*){0,3})/g;
const CURRENCY: Readonly<Record<string, 'USD' | 'EUR' | 'GBP'>> = { $: 'USD', '€': 'EUR', '£': 'GBP' };

function positionsOf(lower: string, names: readonly string[]): number[] {
  const out: number[] = [];
  for (const n of names) {
    const name = n.toLowerCase();
    if (!name) continue;
    for (let at = lower.indexOf(name); at >= 0; at = lower.indexOf(name, at + name.length)) out.push(at);
  }
  return out.sort((a, b) => a - b);
}

/** Whether the claim at `at` is about the brand: the nearest entity named before it is the brand. */
function aboutBrand(at: number, brandAt: readonly number[], othersAt: readonly number[]): boolean {
  const lastBrand = Math.max(-1, ...brandAt.filter((p) => p < at));
  const lastOther = Math.max(-1, ...othersAt.filter((p) => p < at));
  return lastBrand >= 0 && lastBrand > lastOther;
}

const samePlace = (claimed: string, expected: string): boolean => {
  const c = claimed.toLowerCase();
  const e = expected.toLowerCase();
  const city = e.split(',')[0].trim();
  return c.includes(city) || e.includes(c.split(',')[0].trim());
};

/**
 * Finds the claims a set of sentences make about the brand on its registered facts (founding year,
 * starting price, headquarters) and checks each: a claim is attributed to the brand when the last
 * tracked entity named before it in the sentence is the brand ("Acme, founded in 2012, ...";
 * "Globex was founded in 2005" is not Acme's). Pure and linear in the text.
 */
export function checkFacts(sentences: readonly string[], brandNames: readonly string[], otherNames: readonly string[], facts: BrandFacts): FactClaim[] {
  const claims: FactClaim[] = [];
  for (const sentence of sentences) {
    const found: { at: number; claim: FactClaim }[] = [];
    const push = (at: number, claim: FactClaim) => found.push({ at, claim });
    const lower = sentence.toLowerCase();
    const brandAt = positionsOf(lower, brandNames);
    if (!brandAt.length) continue;
    const othersAt = positionsOf(lower, otherNames);
    if (facts.foundedYear != null) {
      for (const m of sentence.matchAll(FOUNDED)) {
        if (!aboutBrand(m.index!, brandAt, othersAt)) continue;
        push(m.index!, { fact: 'foundedYear', claimed: m[1], expected: String(facts.foundedYear), agrees: Number(m[1]) === facts.foundedYear, sentence });
      }
    }
    if (facts.startingPrice != null) {
      const seen = new Set<number>();
      for (const m of [...sentence.matchAll(PRICE), ...sentence.matchAll(PRICE_FROM)]) {
        if (seen.has(m.index! + m[0].length) || !aboutBrand(m.index!, brandAt, othersAt)) continue;
        seen.add(m.index! + m[0].length);
        const amount = Number(m[2].replace(',', '.'));
        const currency = CURRENCY[m[1]];
        const expected = facts.startingPrice;
        push(m.index!, { fact: 'startingPrice', claimed: `${m[1]}${m[2]}`, expected: `${expected.currency} ${expected.amount}`, agrees: currency === expected.currency && Math.abs(amount - expected.amount) < 0.005, sentence });
      }
    }
    if (facts.headquarters != null && facts.headquarters.trim()) {
      for (const m of sentence.matchAll(HEADQUARTERS)) {
        if (!aboutBrand(m.index!, brandAt, othersAt)) continue;
        const place = m[1].replace(/[.,]+$/, '');
        push(m.index!, { fact: 'headquarters', claimed: place, expected: facts.headquarters, agrees: samePlace(place, facts.headquarters), sentence });
      }
    }
    // In the order the sentence makes them.
    for (const f of found.sort((a, b) => a.at - b.at)) claims.push(f.claim);
  }
  return claims;
}
