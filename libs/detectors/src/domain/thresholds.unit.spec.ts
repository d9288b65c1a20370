import { checkThreshold, DEFAULT_THRESHOLDS, parseThresholds, thresholdsFrom, ThresholdsInputError } from './thresholds';
import { answerOutcome, outcomeWindows } from './outcome';
import { changeTest, cohensH, severityOf } from './significance';
import { many } from '../testing';

describe('thresholds', () => {
  it('parse over the defaults', () => {
    expect(parseThresholds('alpha=0.01, minSamples=10')).toEqual({ ...DEFAULT_THRESHOLDS, alpha: 0.01, minSamples: 10 });
    expect(thresholdsFrom({ outcomeWindowDays: 0.5 })).toEqual({ ...DEFAULT_THRESHOLDS, outcomeWindowDays: 0.5 });
  });

  it.each([
    ['alpha=0', /^alpha must be significance level, above 0 and at most 0.2/],
    ['alpha=0.5', /^alpha must be/],
    ['minSamples=1', /^minSamples must be an integer from 2 to 100000/],
    ['minSamples=2.5', /^minSamples must be an integer/],
    ['recentAnswers=abc', /^recentAnswers must be an integer from 1 to 1000 \(got "abc"\)/],
    ['outcomeWindowDays=0', /^outcomeWindowDays must be a number of days above 0/],
    ['outcomeWindowDays=', /^outcomeWindowDays must be/],
    ['nonsense=1', /^unknown setting "nonsense"; known: alpha, minSamples/],
    ['alpha', /is not name=value/],
    ['', /no setting given/],
  ])('refuse %s with an error naming the setting', (text, message) => {
    expect(() => parseThresholds(text)).toThrow(ThresholdsInputError);
    expect(() => parseThresholds(text)).toThrow(message);
  });

  it('name the setting in the error', () => {
    try {
      checkThreshold('maxFlipRate', 2);
    } catch (e) {
      expect((e as ThresholdsInputError).setting).toBe('maxFlipRate');
    }
  });
});

describe('significance and outcomes', () => {
  it("severity follows Cohen's h", () => {
    expect(severityOf(cohensH(0.5, 0.45))).toBe('low');
    expect(severityOf(cohensH(0.5, 0.3))).toBe('medium');
    expect(severityOf(cohensH(0.7, 0.4))).toBe('high');
    expect(severityOf(cohensH(1, 0))).toBe('critical');
  });

  it('a change test says why it is not significant', () => {
    const t = { alpha: 0.05, minSamples: 5, minEffect: 0.1 };
    expect(changeTest({ k: 3, n: 4 }, { k: 0, n: 10 }, 'drop', t).notSignificant).toBe('too_small_sample');
    expect(changeTest({ k: 3, n: 10 }, { k: 9, n: 10 }, 'drop', t).notSignificant).toBe('wrong_direction');
    expect(changeTest({ k: 500, n: 1000 }, { k: 470, n: 1000 }, 'drop', t).notSignificant).toBe('too_small_effect');
    expect(changeTest({ k: 6, n: 10 }, { k: 4, n: 10 }, 'drop', t).notSignificant).toBe('not_significant');
    expect(changeTest({ k: 10, n: 10 }, { k: 0, n: 10 }, 'drop', t)).toMatchObject({ notSignificant: null, test: { pValue: expect.any(Number) } });
  });

  it('outcome figures: mention and citation rates before and after with n; null where there is no answer', () => {
    const o = answerOutcome(many(4, { brand: { mentioned: false, mentions: 0, rank: null }, cited: false }), many(5));
    expect(o.mentionRate).toMatchObject({ before: { k: 0, n: 4, value: 0 }, after: { k: 5, n: 5, value: 1 }, change: 1 });
    expect(o.citationRate).toMatchObject({ before: { k: 0, n: 4 }, after: { k: 5, n: 5 } });
    expect(answerOutcome([], many(1)).mentionRate).toMatchObject({ before: { value: null, n: 0 }, change: null });
    expect(outcomeWindows(new Date('2026-01-10T00:00:00Z'), new Date('2026-01-20T00:00:00Z'), 14)).toEqual({
      before: { from: '2025-12-27T00:00:00.000Z', to: '2026-01-10T00:00:00.000Z' },
      after: { from: '2026-01-20T00:00:00.000Z', to: '2026-02-03T00:00:00.000Z' },
      days: 14,
    });
  });
});
