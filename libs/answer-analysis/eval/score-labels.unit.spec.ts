import { macroF1, scoreLabels } from './score-labels';

describe('scoreLabels', () => {
  it('scores mentions, order, citations and sentiment', () => {
    const { scores, disagreements } = scoreLabels([
      {
        id: 'x',
        expected: { mentions: { a: 2, b: 0, c: 1 }, order: ['a', 'c'], citations: [{ url: 'u1', domain: 'd1' }, { url: 'u2', domain: 'd2' }], sentiment: { a: 'positive', c: 'negative' } },
        predicted: { mentions: { a: 2, b: 1, c: 0 }, order: ['a', 'b'], citations: [{ url: 'u1', domain: 'dx' }, { url: 'u1', domain: 'dx' }, { url: 'u3', domain: 'd3' }], sentiment: { a: 'positive', b: 'neutral' } },
      },
    ]);
    expect(scores.mentionPrecision).toBe(0.5);
    expect(scores.mentionRecall).toBe(0.5);
    expect(scores.mentionCountExact).toBe(0.3333);
    expect(scores.orderExact).toBe(0);
    expect(scores.citationPrecision).toBe(0.3333);
    expect(scores.citationRecall).toBe(0.5);
    expect(scores.citationOrderExact).toBe(0);
    expect(scores.domainAccuracy).toBe(0);
    expect(scores.sentimentAccuracy).toBe(0.5);
    expect(disagreements.length).toBeGreaterThan(5);
  });

  it('computes macro-F1 over the labels present', () => {
    expect(macroF1([{ expected: 'positive', predicted: 'positive' }, { expected: 'negative', predicted: 'positive' }])).toBe(0.3333);
  });
});
