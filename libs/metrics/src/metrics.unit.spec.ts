import {
  absenceScores,
  addDays,
  averagePosition,
  brandIndex,
  consensusScores,
  dailyRateSeries,
  dailySeries,
  daysBetween,
  eachDay,
  isDayKey,
  netSentiment,
  netSentimentOn100,
  normalCdf,
  rate,
  recencyWeight,
  shareOfVoice,
  top3Rate,
  twoProportionTest,
  utcDay,
  wilsonInterval,
} from './index';

describe('rates and Wilson intervals', () => {
  it('matches published Wilson intervals', () => {
    expect(wilsonInterval(0, 10)!.low).toBe(0);
    expect(wilsonInterval(0, 10)!.high).toBeCloseTo(0.2775328, 6);
    expect(wilsonInterval(5, 10)!.low).toBeCloseTo(0.2365931, 6);
    expect(wilsonInterval(5, 10)!.high).toBeCloseTo(0.7634069, 6);
    expect(wilsonInterval(1, 10)!.low).toBeCloseTo(0.0178762, 6);
    expect(wilsonInterval(81, 263)!.low).toBeCloseTo(0.2552885, 6);
    expect(wilsonInterval(81, 263)!.high).toBeCloseTo(0.3662096, 6);
    expect(wilsonInterval(10, 10)!.high).toBe(1);
  });

  it('is null, never zero, without a denominator', () => {
    expect(rate(0, 0)).toEqual({ value: null, n: 0, low: null, high: null });
    expect(rate(3, 4)).toMatchObject({ value: 0.75, n: 4 });
  });

  it('refuses impossible counts', () => {
    expect(() => rate(5, 4)).toThrow(RangeError);
    expect(() => rate(-1, 4)).toThrow(RangeError);
  });
});

describe('visibility figures', () => {
  it('shares voice over every tracked entity, adding up to 1, null when nobody is mentioned', () => {
    const shares = shareOfVoice(new Map([['brand', 3], ['a', 1], ['b', 0]]));
    expect(shares.get('brand')).toBe(0.75);
    expect(shares.get('b')).toBe(0);
    expect([...shares.values()].reduce((s, v) => s! + v!, 0)).toBe(1);
    expect([...shareOfVoice(new Map([['brand', 0], ['a', 0]])).values()]).toEqual([null, null]);
  });

  it('averages positions over ranked answers and rates the top 3 over mentioning answers', () => {
    expect(averagePosition(9, 4)).toEqual({ value: 2.25, n: 4 });
    expect(averagePosition(0, 0)).toEqual({ value: null, n: 0 });
    expect(top3Rate(2, 8).value).toBe(0.25);
  });

  it('nets sentiment over labelled answers, on -100..100 and mapped to 0-100', () => {
    expect(netSentiment({ positive: 6, neutral: 2, negative: 2 })).toEqual({ value: 40, n: 10 });
    expect(netSentiment({ positive: 0, neutral: 0, negative: 0 })).toEqual({ value: null, n: 0 });
    expect(netSentimentOn100(-100)).toBe(0);
    expect(netSentimentOn100(40)).toBe(70);
    expect(netSentimentOn100(null)).toBeNull();
  });
});

describe('brand index', () => {
  const all = (value: number | null, n = 10) => ({ mentionRate: { value, n }, shareOfVoice: { value, n }, netSentiment: { value, n }, citationRate: { value, n }, visibilityShare: { value, n } });

  it('weights the components 30/25/15/20/10 by default and shows each contribution', () => {
    const index = brandIndex({ ...all(50), mentionRate: { value: 100, n: 10 } });
    expect(index.value).toBeCloseTo(50 + 0.3 * 50, 10);
    const mention = index.components.find((c) => c.name === 'mentionRate')!;
    expect(mention).toMatchObject({ weight: 30, effectiveWeight: 30, contribution: 30, n: 10 });
  });

  it('leaves a component without data out and scales the others up, never counting it as 0', () => {
    const index = brandIndex({ ...all(80), visibilityShare: { value: null, n: 0 } });
    expect(index.value).toBeCloseTo(80, 10);
    const visibility = index.components.find((c) => c.name === 'visibilityShare')!;
    expect(visibility).toMatchObject({ value: null, effectiveWeight: 0, contribution: null });
    expect(index.components.reduce((s, c) => s + c.effectiveWeight, 0)).toBeCloseTo(100, 10);
  });

  it('is null when nothing has data, and takes other weights', () => {
    expect(brandIndex(all(null, 0)).value).toBeNull();
    const onlyMentions = brandIndex({ ...all(20), mentionRate: { value: 90, n: 5 } }, { mentionRate: 1, shareOfVoice: 0, netSentiment: 0, citationRate: 0, visibilityShare: 0 });
    expect(onlyMentions.value).toBeCloseTo(90, 10);
  });
});

describe('consensus and absences', () => {
  it('halves a citation’s weight every 7 days', () => {
    expect(recencyWeight(0)).toBe(1);
    expect(recencyWeight(7)).toBeCloseTo(0.5, 12);
    expect(recencyWeight(14)).toBeCloseTo(0.25, 12);
  });

  it('weights by recency and provider coverage, scaled so the top domain is 100', () => {
    const scores = consensusScores(
      [
        { domain: 'a.com', citationAgesDays: [0, 7], providersCiting: 4 },
        { domain: 'b.com', citationAgesDays: [0, 0, 0], providersCiting: 1 },
      ],
      4,
    );
    expect(scores[0]).toMatchObject({ domain: 'a.com', raw: 1.5, score: 100 });
    expect(scores[1].raw).toBeCloseTo(0.75, 12);
    expect(scores[1].score).toBeCloseTo(50, 10);
    expect(consensusScores([{ domain: 'a.com', citationAgesDays: [1], providersCiting: 1 }], 0)[0].score).toBeNull();
  });

  it('takes the recency weights already summed (as a database computes them) to the same scores', () => {
    const summed = consensusScores([{ domain: 'a.com', weightedCitations: 1.5, providersCiting: 4 }, { domain: 'b.com', weightedCitations: 3, providersCiting: 1 }], 4);
    expect(summed.map((s) => [s.raw, s.score])).toEqual([
      [1.5, 100],
      [0.75, 50],
    ]);
  });

  it('scores absences by consensus × competitor density, drops those under minScore', () => {
    const absences = absenceScores(
      [
        { domain: 'x.com', consensus: 2, competitorOnlyAnswers: 5, answersCiting: 10 },
        { domain: 'y.com', consensus: 4, competitorOnlyAnswers: 1, answersCiting: 10 },
        { domain: 'z.com', consensus: 9, competitorOnlyAnswers: 0, answersCiting: 10 },
      ],
      50,
    );
    expect(absences).toEqual([{ domain: 'x.com', competitorDensity: 0.5, score: 100 }]);
  });
});

describe('two-proportion test', () => {
  it('matches the pooled z-test', () => {
    const t = twoProportionTest({ k: 45, n: 100 }, { k: 60, n: 100 });
    expect(t.difference).toBeCloseTo(0.15, 12);
    expect(t.z).toBeCloseTo(2.123977, 5);
    expect(t.pValue).toBeCloseTo(0.033672, 5);
  });

  it('has no answer without data on a side or without variance', () => {
    expect(twoProportionTest({ k: 0, n: 0 }, { k: 1, n: 2 })).toEqual({ difference: null, z: null, pValue: null });
    expect(twoProportionTest({ k: 0, n: 5 }, { k: 0, n: 7 })).toEqual({ difference: 0, z: null, pValue: null });
  });

  it('uses a normal CDF accurate to 1e-7', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.96)).toBeCloseTo(0.9750021, 7);
    expect(normalCdf(-1)).toBeCloseTo(0.1586553, 7);
    expect(normalCdf(3.5)).toBeCloseTo(0.9997674, 7);
  });
});

describe('UTC days and daily series', () => {
  it('knows calendar days', () => {
    expect(isDayKey('2026-02-28')).toBe(true);
    expect(isDayKey('2026-02-30')).toBe(false);
    for (const yes of ['2024-02-29', '2000-02-29', '2026-12-31', '1800-01-01', '0100-01-01', '9999-12-31']) expect([yes, isDayKey(yes)]).toEqual([yes, true]);
    for (const no of ['2100-02-29', '2026-13-01', '2026-00-10', '2026-01-00', '2026-04-31', '2026-1-01', '2026-01-1 ', '0099-01-01', '+02026-01-01', '2026/01/01', '２０２６-01-01', '2026-0a-01', ''])
      expect([no, isDayKey(no)]).toEqual([no, false]);
    // Every day Date's calendar has, a week apart over four centuries (each weekday, leap days included), is accepted.
    for (let t = Date.UTC(1899, 0, 1); t < Date.UTC(2301, 0, 1); t += 86_400_000 * 7) {
      const day = new Date(t).toISOString().slice(0, 10);
      expect(isDayKey(day)).toBe(true);
    }
    expect(isDayKey('2026-2-3')).toBe(false);
    expect(utcDay('2026-03-01T23:30:00-02:00')).toBe('2026-03-02');
    expect(addDays('2026-02-27', 2)).toBe('2026-03-01');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(daysBetween('2026-03-28', '2026-04-02')).toBe(5);
    expect(eachDay('2026-12-30', '2027-01-02')).toEqual(['2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02']);
    expect(eachDay('2026-01-02', '2026-01-01')).toEqual([]);
  });

  it('keeps days without answers, with n 0 and null values', () => {
    const series = dailyRateSeries('2026-05-01', '2026-05-03', new Map([['2026-05-02', { k: 1, n: 4 }], ['2026-06-01', { k: 1, n: 1 }]]));
    expect(series.map((p) => p.date)).toEqual(['2026-05-01', '2026-05-02', '2026-05-03']);
    expect(series[0]).toEqual({ date: '2026-05-01', value: null, n: 0, low: null, high: null });
    expect(series[1]).toMatchObject({ value: 0.25, n: 4 });
    const averages = dailySeries('2026-05-01', '2026-05-02', new Map([['2026-05-02', { sum: 6, n: 3 }]]), (d) => ({ value: d.sum / d.n, n: d.n }));
    expect(averages).toEqual([
      { date: '2026-05-01', value: null, n: 0, low: null, high: null },
      { date: '2026-05-02', value: 2, n: 3, low: null, high: null },
    ]);
  });
});
