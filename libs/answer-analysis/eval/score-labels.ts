/** Scoring maths of the evaluation: the engine's labels against hand-made ones. Pure, so it can be unit-tested. */

export type Sentiment = 'positive' | 'neutral' | 'negative';

export interface Labels {
  readonly mentions: Readonly<Record<string, number>>;
  readonly order: readonly string[];
  readonly citations: readonly { readonly url: string; readonly domain: string }[];
  readonly sentiment: Readonly<Record<string, Sentiment>>;
}

export interface LabelledPair {
  readonly id: string;
  readonly expected: Labels;
  readonly predicted: Labels;
}

export interface Scores {
  readonly answers: number;
  readonly mentionPrecision: number;
  readonly mentionRecall: number;
  readonly mentionCountExact: number;
  readonly orderExact: number;
  readonly citationPrecision: number;
  readonly citationRecall: number;
  readonly citationOrderExact: number;
  readonly domainAccuracy: number;
  readonly sentimentAccuracy: number;
  readonly sentimentMacroF1: number;
}

export interface Evaluation {
  readonly scores: Scores;
  /** Every labelled entity's expected and predicted sentiment, with its answer id. */
  readonly sentiments: readonly { readonly id: string; readonly expected: Sentiment; readonly predicted: Sentiment | null }[];
  /** One line per disagreement, "id field: expected … got …". */
  readonly disagreements: readonly string[];
}

const LABELS: readonly Sentiment[] = ['positive', 'neutral', 'negative'];

function ratio(num: number, den: number): number {
  return den === 0 ? 1 : Math.round((num / den) * 10000) / 10000;
}

/** Sentiment figures of a set of labelled entities: every rate with its n. */
export interface SentimentFigures {
  readonly n: number;
  readonly accuracy: number;
  readonly macroF1: number;
  /** Per expected class: how many there were and the share labelled right. */
  readonly recall: Readonly<Record<Sentiment, { readonly n: number; readonly recall: number | null }>>;
  /** Per predicted class: how many were predicted and the share right. */
  readonly precision: Readonly<Record<Sentiment, { readonly n: number; readonly precision: number | null }>>;
}

export function sentimentFigures(pairs: readonly { expected: Sentiment; predicted: Sentiment | null }[]): SentimentFigures {
  const perClass = <K extends string>(key: K, pick: (p: { expected: Sentiment; predicted: Sentiment | null }) => Sentiment | null) =>
    Object.fromEntries(
      LABELS.map((label) => {
        const of = pairs.filter((p) => pick(p) === label);
        return [label, { n: of.length, [key]: of.length === 0 ? null : ratio(of.filter((p) => p.expected === p.predicted).length, of.length) }];
      }),
    );
  return {
    n: pairs.length,
    accuracy: ratio(pairs.filter((p) => p.expected === p.predicted).length, pairs.length),
    macroF1: macroF1(pairs),
    recall: perClass('recall', (p) => p.expected) as SentimentFigures['recall'],
    precision: perClass('precision', (p) => p.predicted) as SentimentFigures['precision'],
  };
}

/** Macro-averaged F1 over the three labels; a label never expected nor predicted is left out. */
export function macroF1(pairs: readonly { expected: Sentiment; predicted: Sentiment | null }[]): number {
  const f1s: number[] = [];
  for (const label of LABELS) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const p of pairs) {
      if (p.predicted === label && p.expected === label) tp++;
      else if (p.predicted === label) fp++;
      else if (p.expected === label) fn++;
    }
    if (tp + fp + fn === 0) continue;
    const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
    const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
    f1s.push(precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall));
  }
  return f1s.length === 0 ? 1 : Math.round((f1s.reduce((a, b) => a + b, 0) / f1s.length) * 10000) / 10000;
}

export function scoreLabels(pairs: readonly LabelledPair[]): Evaluation {
  const d: string[] = [];
  let mTp = 0;
  let mFp = 0;
  let mFn = 0;
  let countExact = 0;
  let countTotal = 0;
  let orderExact = 0;
  let cTp = 0;
  let cPredicted = 0;
  let cExpected = 0;
  let cOrderExact = 0;
  let domainRight = 0;
  let domainTotal = 0;
  const sentiments: { id: string; expected: Sentiment; predicted: Sentiment | null }[] = [];

  for (const { id, expected, predicted } of pairs) {
    // Mentions: an entity counted as mentioned or not, and its count.
    for (const [entity, count] of Object.entries(expected.mentions)) {
      const got = predicted.mentions[entity] ?? 0;
      const isExpected = count > 0;
      const isPredicted = got > 0;
      if (isExpected && isPredicted) mTp++;
      else if (isPredicted) mFp++;
      else if (isExpected) mFn++;
      countTotal++;
      if (got === count) countExact++;
      else d.push(`${id} mentions.${entity}: expected ${count}, got ${got}`);
    }
    for (const [entity, got] of Object.entries(predicted.mentions)) {
      if (!(entity in expected.mentions) && got > 0) {
        mFp++;
        d.push(`${id} mentions.${entity}: not an expected entity, got ${got}`);
      }
    }
    // Order.
    if (expected.order.length === predicted.order.length && expected.order.every((e, i) => predicted.order[i] === e)) orderExact++;
    else d.push(`${id} order: expected ${JSON.stringify(expected.order)}, got ${JSON.stringify(predicted.order)}`);
    // Citations, by normalised URL; a URL reported twice counts against precision.
    const expectedByUrl = new Map(expected.citations.map((c) => [c.url, c.domain]));
    const matched = new Set<string>();
    for (const c of predicted.citations) {
      cPredicted++;
      const domain = expectedByUrl.get(c.url);
      if (domain !== undefined && !matched.has(c.url)) {
        matched.add(c.url);
        cTp++;
        domainTotal++;
        if (domain === c.domain) domainRight++;
        else d.push(`${id} citation domain ${c.url}: expected ${domain}, got ${c.domain}`);
      } else {
        d.push(`${id} citation: unexpected ${c.url}${matched.has(c.url) ? ' (duplicate)' : ''}`);
      }
    }
    cExpected += expected.citations.length;
    for (const c of expected.citations) if (!matched.has(c.url)) d.push(`${id} citation: missing ${c.url}`);
    const eu = expected.citations.map((c) => c.url);
    const pu = predicted.citations.map((c) => c.url);
    if (eu.length === pu.length && eu.every((u, i) => pu[i] === u)) cOrderExact++;
    else d.push(`${id} citation order: expected ${JSON.stringify(eu)}, got ${JSON.stringify(pu)}`);
    // Sentiment of the entities the labels give one for.
    for (const [entity, label] of Object.entries(expected.sentiment)) {
      const got = predicted.sentiment[entity] ?? null;
      sentiments.push({ id, expected: label, predicted: got });
      if (got !== label) d.push(`${id} sentiment.${entity}: expected ${label}, got ${got ?? 'none'}`);
    }
  }
  const n = pairs.length;
  return {
    scores: {
      answers: n,
      mentionPrecision: ratio(mTp, mTp + mFp),
      mentionRecall: ratio(mTp, mTp + mFn),
      mentionCountExact: ratio(countExact, countTotal),
      orderExact: ratio(orderExact, n),
      citationPrecision: ratio(cTp, cPredicted),
      citationRecall: ratio(cTp, cExpected),
      citationOrderExact: ratio(cOrderExact, n),
      domainAccuracy: ratio(domainRight, domainTotal),
      sentimentAccuracy: ratio(sentiments.filter((s) => s.expected === s.predicted).length, sentiments.length),
      sentimentMacroF1: macroF1(sentiments),
    },
    sentiments,
    disagreements: d,
  };
}
