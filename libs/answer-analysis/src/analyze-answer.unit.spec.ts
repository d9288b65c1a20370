import { analyzeAnswer, createAnalyzer } from './analyze-answer';
import { InvalidAnswerInputError, InvalidEntitiesError } from './errors';
import { AnswerInput, TrackedEntity } from './types';

const entities: TrackedEntity[] = [
  { id: 'brand', kind: 'brand', name: 'Alphasoft', domains: ['alphasoft.com'] },
  { id: 'c1', kind: 'competitor', name: 'Bravosoft' },
];

function within(ms: number, fn: () => void): void {
  const t0 = Date.now();
  fn();
  expect(Date.now() - t0).toBeLessThan(ms);
}

describe('analyzeAnswer', () => {
  it('reports the brand, its place, offsets, sentences and the prompt gap', () => {
    const a = analyzeAnswer({ answer: 'Use **Bravosoft**. Bravosoft is great.', entities });
    expect(a.brand).toEqual({ entityId: 'brand', mentioned: false, rank: null });
    expect(a.competitorsMentionedWithoutBrand).toEqual(['c1']);
    const c1 = a.entities[1];
    expect(c1.firstOffset).toBe(6);
    expect(c1.rank).toBe(1);
    expect(c1.sentences).toEqual(['Use Bravosoft.', 'Bravosoft is great.']);
    expect(c1.visibility).toBeCloseTo(1, 5);
  });

  it('gives a defined result for an empty answer', () => {
    const a = analyzeAnswer({ answer: '', entities });
    expect(a.order).toEqual([]);
    expect(a.citations).toEqual([]);
    expect(a.entities.map((e) => e.mentionCount)).toEqual([0, 0]);
  });

  it('throws typed errors on unusable input', () => {
    expect(() => analyzeAnswer({ answer: 'x', entities: [entities[0], { ...entities[0] }] })).toThrow(InvalidEntitiesError);
    expect(() => analyzeAnswer({ answer: 'x', entities: [{ id: 'a', kind: 'brand', name: ' ' }] })).toThrow(InvalidEntitiesError);
    expect(() => analyzeAnswer({ answer: 42, entities } as unknown as AnswerInput)).toThrow(InvalidAnswerInputError);
  });

  it('finishes quickly on adversarial input', () => {
    const cases = [
      'a'.repeat(1_000_000),
      '['.repeat(100_000),
      `${'['.repeat(50_000)}a](https://x.com/${'('.repeat(50_000)}`,
      `${'**_'.repeat(30_000)}Alphasoft${'_**'.repeat(30_000)}`,
      `${'> - '.repeat(20_000)}Alphasoft`,
      `https://alphasoft.com/${'a'.repeat(100_000)} Alphasoft`,
      `${'Alphasoft '.repeat(100_000)}`,
      `${'| Alphasoft '.repeat(50_000)}|\n`.repeat(2),
      `${'1. Bravosoft\n'.repeat(20_000)}`,
      `Alphasoft ${'> '.repeat(50_000)}Bravosoft`,
      `${'> '.repeat(50_000)}- Alphasoft\n${'>'.repeat(100_000)}`,
    ];
    // A hang guard, not a speed measure (the benchmark measures speed): catastrophic backtracking would take minutes.
    for (const answer of cases) within(10_000, () => analyzeAnswer({ answer, entities }));
  });
});

describe('createAnalyzer', () => {
  it('gives the same analysis as analyzeAnswer, answer after answer, with no state carried over', () => {
    const analyzer = createAnalyzer(entities);
    const answers = ['1. **Alphasoft** – excellent\n2. **Bravosoft** – avoid', 'Bravosoft is fine. https://alphasoft.com/x', '', 'Alphasoft Alphasoft Alphasoft'];
    for (const answer of [...answers, ...answers]) expect(analyzer.analyze({ answer })).toEqual(analyzeAnswer({ answer, entities }));
  });
});
