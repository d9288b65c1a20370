/** The components of the brand index (DESIGN §14), each on a 0-100 scale. */
export type BrandIndexComponentName = 'mentionRate' | 'shareOfVoice' | 'netSentiment' | 'citationRate' | 'visibilityShare';

/** Weights in percent; they need not add to 100 (they are normalised). */
export type BrandIndexWeights = Record<BrandIndexComponentName, number>;

export const DEFAULT_BRAND_INDEX_WEIGHTS: Readonly<BrandIndexWeights> = Object.freeze({
  mentionRate: 30,
  shareOfVoice: 25,
  netSentiment: 15,
  citationRate: 20,
  visibilityShare: 10,
});

/** One component's input: its value on 0-100 (null without data) and its n. */
export interface BrandIndexInput {
  value: number | null;
  n: number;
}

export interface BrandIndexComponent {
  name: BrandIndexComponentName;
  /** The component on 0-100, or null without data. */
  value: number | null;
  /** Its configured weight (percent). */
  weight: number;
  /** The weight it carried in this index after components without data were left out (percent, adds to 100). */
  effectiveWeight: number;
  /** value × effectiveWeight / 100: the points it added to the index (null when left out). */
  contribution: number | null;
  n: number;
}

export interface BrandIndex {
  /** 0-100, or null when no component has data. */
  value: number | null;
  components: BrandIndexComponent[];
}

const ORDER: BrandIndexComponentName[] = ['mentionRate', 'shareOfVoice', 'netSentiment', 'citationRate', 'visibilityShare'];

/**
 * The brand index (0-100): a weighted mean of its components. A component without data (null, or
 * n = 0) is left out and the others' weights are scaled up to 100 %, so a missing figure neither
 * counts as 0 nor hides the rest; the response shows each component's configured and effective
 * weight, so the reader sees what was left out. Null when no component has data.
 */
export function brandIndex(inputs: Record<BrandIndexComponentName, BrandIndexInput>, weights: BrandIndexWeights = DEFAULT_BRAND_INDEX_WEIGHTS): BrandIndex {
  for (const name of ORDER) {
    const w = weights[name];
    if (!Number.isFinite(w) || w < 0) throw new RangeError(`Weight of ${name} must be >= 0 (got ${w})`);
    const v = inputs[name].value;
    if (v !== null && (!Number.isFinite(v) || v < 0 || v > 100)) throw new RangeError(`${name} must be on 0-100 (got ${v})`);
  }
  const present = ORDER.filter((name) => inputs[name].value !== null && inputs[name].n > 0 && weights[name] > 0);
  const presentWeight = present.reduce((sum, name) => sum + weights[name], 0);
  const components = ORDER.map((name): BrandIndexComponent => {
    const used = present.includes(name);
    const effectiveWeight = used ? (weights[name] / presentWeight) * 100 : 0;
    const value = inputs[name].n > 0 ? inputs[name].value : null;
    return { name, value, weight: weights[name], effectiveWeight, contribution: used ? (value! * effectiveWeight) / 100 : null, n: inputs[name].n };
  });
  const value = present.length ? components.reduce((sum, c) => sum + (c.contribution ?? 0), 0) : null;
  return { value, components };
}
