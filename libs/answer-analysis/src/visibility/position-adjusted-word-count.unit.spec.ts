import { positionAdjustedWordCountShares } from './position-adjusted-word-count';

describe('positionAdjustedWordCountShares', () => {
  it('weights words by exp(-position / (n - 1)) and returns shares of the answer', () => {
    const shares = positionAdjustedWordCountShares(
      [
        { wordCount: 10, entities: [0] },
        { wordCount: 10, entities: [1] },
        { wordCount: 10, entities: [] },
      ],
      2,
    );
    const w = [1, Math.exp(-0.5), Math.exp(-1)];
    const total = 10 * (w[0] + w[1] + w[2]);
    expect(shares[0]).toBeCloseTo((10 * w[0]) / total, 5);
    expect(shares[1]).toBeCloseTo((10 * w[1]) / total, 5);
    expect(shares[0]).toBeGreaterThan(shares[1]);
  });

  it('splits a sentence about several entities and copes with one or no sentence', () => {
    expect(positionAdjustedWordCountShares([{ wordCount: 4, entities: [0, 1] }], 2)).toEqual([0.5, 0.5]);
    expect(positionAdjustedWordCountShares([], 2)).toEqual([0, 0]);
  });
});
