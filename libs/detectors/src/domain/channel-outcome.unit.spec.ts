import { channelOutcome, channelWindows, type ChannelWindowSums } from './channel-outcome';

const sums = (channel: string, window: 'before' | 'after', rows: number, aiSessions: number | null, conversions: number | null, revenue: number | null): ChannelWindowSums => ({ channel, window, rows, aiSessions, conversions, revenue });

describe('channelWindows', () => {
  it('equal windows of whole days: before ends the day before detection, after starts the day of resolution', () => {
    expect(channelWindows(new Date('2026-03-10T15:00:00Z'), new Date('2026-03-20T08:00:00Z'), 14)).toEqual({
      before: { from: '2026-02-24', to: '2026-03-09' },
      after: { from: '2026-03-20', to: '2026-04-02' },
      days: 14,
    });
  });

  it('a window shorter than a day is one day (the rows are daily)', () => {
    expect(channelWindows(new Date('2026-03-10T15:00:00Z'), new Date('2026-03-10T15:00:30Z'), 8 / 86_400)).toEqual({
      before: { from: '2026-03-09', to: '2026-03-09' },
      after: { from: '2026-03-10', to: '2026-03-10' },
      days: 1,
    });
  });
});

describe('channelOutcome', () => {
  it('AI sessions, conversions and revenue before and after with the change', () => {
    const o = channelOutcome([sums('ga4', 'before', 14, 100, 10, 1000), sums('ga4', 'after', 14, 150, 12, 1500.5)]);
    expect(o).toMatchObject({ source: 'ga4', rows: { before: 14, after: 14 }, aiSessions: { before: 100, after: 150, change: 50 }, conversions: { before: 10, after: 12, change: 2 }, revenue: { before: 1000, after: 1500.5, change: 500.5 } });
  });

  it('null, never 0, where the brand has no channel rows in a window', () => {
    expect(channelOutcome([])).toMatchObject({ source: null, rows: { before: 0, after: 0 }, aiSessions: { before: null, after: null, change: null }, revenue: { before: null, after: null, change: null } });
    const onlyAfter = channelOutcome([sums('import', 'after', 3, 9, 1, 10)]);
    expect(onlyAfter).toMatchObject({ source: 'import', aiSessions: { before: null, after: 9, change: null }, conversions: { before: null, after: 1, change: null } });
  });

  it('null where rows exist but none has the figure', () => {
    expect(channelOutcome([sums('ai_referrals', 'before', 7, 20, null, null), sums('ai_referrals', 'after', 7, 30, null, null)])).toMatchObject({
      aiSessions: { change: 10 },
      conversions: { before: null, after: null, change: null },
      revenue: { change: null },
    });
  });

  it('overlapping channels are not summed: GA4 first, then imports, then the built-in AI referrals', () => {
    const o = channelOutcome([sums('ai_referrals', 'before', 7, 20, null, null), sums('ai_referrals', 'after', 7, 30, null, null), sums('ga4', 'before', 7, 18, 3, 30), sums('ga4', 'after', 7, 29, 4, 40)]);
    expect(o).toMatchObject({ source: 'ga4', aiSessions: { before: 18, after: 29, change: 11 } });
    expect(o.byChannel).toHaveLength(4);
  });
});
