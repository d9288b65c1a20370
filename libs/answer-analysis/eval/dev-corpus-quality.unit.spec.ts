import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { evaluateCorpus } from './evaluate-corpus';

const corpus = resolve(__dirname, '../../../../shared/corpus/answers-dev.jsonl');

if (!existsSync(corpus)) console.warn(`dev corpus quality SKIPPED: ${corpus} not found (CI has shared/ beside the clone)`);

/** The engine over the labelled dev corpus: a regression below these floors fails CI. */
(existsSync(corpus) ? describe : describe.skip)('quality on the dev corpus', () => {
  let scores: ReturnType<typeof evaluateCorpus>['scores'];
  beforeAll(() => {
    scores = evaluateCorpus(readFileSync(corpus, 'utf8')).scores;
  });

  it('finds mentions, counts and order', () => {
    expect(scores.mentionPrecision).toBeGreaterThanOrEqual(0.98);
    expect(scores.mentionRecall).toBeGreaterThanOrEqual(0.98);
    expect(scores.mentionCountExact).toBeGreaterThanOrEqual(0.95);
    expect(scores.orderExact).toBeGreaterThanOrEqual(0.9);
  });

  it('finds citations in order with their domains', () => {
    expect(scores.citationPrecision).toBeGreaterThanOrEqual(0.98);
    expect(scores.citationRecall).toBeGreaterThanOrEqual(0.98);
    expect(scores.citationOrderExact).toBeGreaterThanOrEqual(0.95);
    expect(scores.domainAccuracy).toBeGreaterThanOrEqual(0.98);
  });

  it('labels sentiment (targets: 0.8 accuracy / 0.7 macro-F1)', () => {
    expect(scores.sentimentAccuracy).toBeGreaterThanOrEqual(0.8);
    expect(scores.sentimentMacroF1).toBeGreaterThanOrEqual(0.7);
  });
});
