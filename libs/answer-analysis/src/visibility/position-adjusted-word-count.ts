/**
 * The GEO paper's position-adjusted word count (Aggarwal et al., "GEO: Generative Engine Optimization", KDD 2024):
 * each sentence's words weighted by exp(-position / (sentences - 1)), so earlier sentences count more, credited to the
 * entities the sentence names or cites (split equally when it is about several, as the paper splits a sentence among
 * its sources), and divided by the weighted words of the whole answer: a share in [0, 1].
 */
export interface SentenceCredit {
  readonly wordCount: number;
  /** Entity indexes the sentence names or cites (each once). */
  readonly entities: readonly number[];
}

export function positionAdjustedWordCountShares(sentences: readonly SentenceCredit[], entityCount: number): number[] {
  const shares = new Array<number>(entityCount).fill(0);
  const n = sentences.length;
  if (n === 0) return shares;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const s = sentences[i];
    const weight = n > 1 ? Math.exp(-i / (n - 1)) : 1;
    const words = s.wordCount * weight;
    total += words;
    if (s.entities.length === 0) continue;
    const each = words / s.entities.length;
    for (const e of s.entities) shares[e] += each;
  }
  if (total <= 0) return shares;
  return shares.map((v) => Math.round((v / total) * 1e6) / 1e6);
}
