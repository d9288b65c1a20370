/**
 * The settings every detector reads, per organisation (`cli detectors thresholds`). Each has a
 * default and a range; a value outside its range is refused with a message naming the setting.
 */
export interface Thresholds {
  /** Significance level of the two-proportion tests: a drop opens only when p < alpha. */
  alpha: number;
  /** The smallest sample (answers, or mentions for share of voice) on each side of a test. */
  minSamples: number;
  /** The recent window of a series (one prompt asked of one provider): its last N answers. */
  recentAnswers: number;
  /** The baseline window: the N answers of the series before the recent ones. */
  baselineAnswers: number;
  /** The smallest change of a rate (absolute, 0-1) worth an opportunity, however significant. */
  minEffect: number;
  /** stability_alert: flips of the brand's mention between consecutive answers, as a share of transitions, above which a series is unstable. */
  maxFlipRate: number;
  /** misinformation: recent answers of a series contradicting a registered fact before it opens. */
  minContradictions: number;
  /** hallucination_cluster: series (prompt × provider) repeating the same wrong claim before it opens. */
  clusterMinSeries: number;
  /** Days after resolution before the outcome is finalised (fractions allowed). */
  outcomeWindowDays: number;
  /** crawl_block: an AI agent's visits answered 4xx/5xx, as a share of its visits, above which it is blocked. */
  maxErrorShare: number;
  /** readiness_gap: a page audit's GEO score (0-100) below which the page is not ready for AI answers. */
  minPageScore: number;
  /** readiness_gap: points a page's score may lose from one audit to the next before the fall is a gap. */
  maxScoreDrop: number;
}

export const DEFAULT_THRESHOLDS: Readonly<Thresholds> = Object.freeze({
  alpha: 0.05,
  minSamples: 5,
  recentAnswers: 7,
  baselineAnswers: 28,
  minEffect: 0.1,
  maxFlipRate: 0.3,
  minContradictions: 2,
  clusterMinSeries: 2,
  outcomeWindowDays: 14,
  maxErrorShare: 0.1,
  minPageScore: 50,
  maxScoreDrop: 15,
});

interface Bound {
  min: number;
  max: number;
  integer: boolean;
  /** The low end is excluded (alpha = 0 would open nothing ever; a window of 0 days is none). */
  exclusiveMin?: boolean;
  description: string;
}

/** Every setting's range (also the CLI's help). */
export const THRESHOLD_BOUNDS: Readonly<Record<keyof Thresholds, Bound>> = Object.freeze({
  alpha: { min: 0, max: 0.2, integer: false, exclusiveMin: true, description: 'significance level, above 0 and at most 0.2' },
  minSamples: { min: 2, max: 100_000, integer: true, description: 'an integer from 2 to 100000' },
  recentAnswers: { min: 1, max: 1000, integer: true, description: 'an integer from 1 to 1000' },
  baselineAnswers: { min: 1, max: 10_000, integer: true, description: 'an integer from 1 to 10000' },
  minEffect: { min: 0, max: 1, integer: false, description: 'a number from 0 to 1' },
  maxFlipRate: { min: 0, max: 1, integer: false, exclusiveMin: true, description: 'a number above 0 and at most 1' },
  minContradictions: { min: 1, max: 1000, integer: true, description: 'an integer from 1 to 1000' },
  clusterMinSeries: { min: 2, max: 1000, integer: true, description: 'an integer from 2 to 1000' },
  outcomeWindowDays: { min: 0, max: 365, integer: false, exclusiveMin: true, description: 'a number of days above 0 and at most 365' },
  maxErrorShare: { min: 0, max: 0.99, integer: false, exclusiveMin: true, description: 'a number above 0 and at most 0.99' },
  minPageScore: { min: 1, max: 100, integer: true, description: 'an integer from 1 to 100' },
  maxScoreDrop: { min: 1, max: 100, integer: true, description: 'an integer from 1 to 100' },
});

export const THRESHOLD_NAMES = Object.keys(DEFAULT_THRESHOLDS) as (keyof Thresholds)[];

export class ThresholdsInputError extends Error {
  override readonly name = 'ThresholdsInputError';
  constructor(
    message: string,
    readonly setting: string | null,
  ) {
    super(message);
  }
}

/** One setting's value checked against its range (the error names the setting and its range). */
export function checkThreshold(name: string, value: unknown): number {
  if (!(THRESHOLD_NAMES as string[]).includes(name)) throw new ThresholdsInputError(`unknown setting "${name}"; known: ${THRESHOLD_NAMES.join(', ')}`, name);
  const bound = THRESHOLD_BOUNDS[name as keyof Thresholds];
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  const ok = Number.isFinite(n) && (bound.exclusiveMin ? n > bound.min : n >= bound.min) && n <= bound.max && (!bound.integer || Number.isInteger(n));
  if (!ok) throw new ThresholdsInputError(`${name} must be ${bound.description} (got ${JSON.stringify(value)})`, name);
  return n;
}

/** Parses `alpha=0.01,minSamples=10` over `base`; every problem is reported by the setting's name. */
export function parseThresholds(text: string, base: Thresholds = DEFAULT_THRESHOLDS): Thresholds {
  const out = { ...base };
  const parts = text.split(',').map((p) => p.trim()).filter(Boolean);
  if (!parts.length) throw new ThresholdsInputError('no setting given (e.g. alpha=0.01,minSamples=10)', null);
  for (const part of parts) {
    const eq = part.indexOf('=');
    if (eq < 0) throw new ThresholdsInputError(`"${part}" is not name=value`, null);
    const name = part.slice(0, eq).trim();
    out[name as keyof Thresholds] = checkThreshold(name, part.slice(eq + 1).trim());
  }
  return out;
}

/** Stored settings over the defaults, each re-checked (a stored value outside today's range is refused, not used). */
export function thresholdsFrom(stored: Record<string, unknown>): Thresholds {
  const out = { ...DEFAULT_THRESHOLDS };
  for (const [name, value] of Object.entries(stored)) out[name as keyof Thresholds] = checkThreshold(name, value);
  return out;
}
