import { isAiAssistantSource } from './ai-sources';
import { headerProblems, importDays, importRow } from './import-rows';
import { retryDelayMs } from './retry-policy';
import { chunks, syncWindow } from './sync-window';

describe('AI assistant sources', () => {
  it.each(['chatgpt.com', 'https://chatgpt.com/c/123', 'www.perplexity.ai', 'gemini.google.com', 'copilot.microsoft.com', 'CLAUDE.AI', 'edge.chatgpt.com'])('%s is an AI assistant', (s) => {
    expect(isAiAssistantSource(s)).toBe(true);
  });
  it.each(['google', 'google.com', 'notchatgpt.com', 'chatgpt.com.evil.example', '(direct)', '', null])('%s is not', (s) => {
    expect(isAiAssistantSource(s)).toBe(false);
  });
});

describe('sync window', () => {
  const today = '2026-11-25';
  it('backfills the chosen days up to yesterday on the first sync', () => {
    expect(syncWindow({ cursor: null, backfillDays: 30, today })).toEqual({ start: '2026-10-26', end: '2026-11-24' });
  });
  it('resumes after the cursor, re-fetching the refresh days', () => {
    expect(syncWindow({ cursor: '2026-11-20', backfillDays: 30, today })).toEqual({ start: '2026-11-21', end: '2026-11-24' });
    expect(syncWindow({ cursor: '2026-11-24', backfillDays: 30, today, refreshDays: 3 })).toEqual({ start: '2026-11-22', end: '2026-11-24' });
    expect(syncWindow({ cursor: '2026-11-24', backfillDays: 30, today })).toBeNull();
  });
  it('cuts a window into chunks, oldest first, the last one short', () => {
    expect(chunks({ start: '2026-02-26', end: '2026-03-04' }, 3)).toEqual([
      { start: '2026-02-26', end: '2026-02-28' },
      { start: '2026-03-01', end: '2026-03-03' },
      { start: '2026-03-04', end: '2026-03-04' },
    ]);
  });
});

describe('retry delays', () => {
  it('doubles from the base with jitter in [0.5, 1], capped, and a longer Retry-After wins', () => {
    expect(retryDelayMs(1, 1000, 60_000, null, () => 1)).toBe(1000);
    expect(retryDelayMs(3, 1000, 60_000, null, () => 1)).toBe(4000);
    expect(retryDelayMs(3, 1000, 60_000, null, () => 0)).toBe(2000);
    expect(retryDelayMs(20, 1000, 60_000, null, () => 1)).toBe(60_000);
    expect(retryDelayMs(1, 1000, 60_000, 5000, () => 1)).toBe(5000);
    expect(retryDelayMs(1, 1000, 60_000, 10_000_000, () => 1)).toBe(60_000);
  });
});

describe('import rows', () => {
  it('needs a date and a figure column, knows its columns', () => {
    expect(headerProblems(['date', 'sessions'])).toEqual([]);
    expect(headerProblems(['sessions']).join()).toMatch(/date column is missing/);
    expect(headerProblems(['date']).join()).toMatch(/no figure column/);
    expect(headerProblems(['date', 'sessions', 'visits']).join()).toMatch(/unknown column "visits"/);
    expect(headerProblems(['date', 'sessions', 'sessions']).join()).toMatch(/appears twice/);
    expect(headerProblems(['date', 'brandId', 'domain', 'clicks']).join()).toMatch(/not both/);
  });

  const days = importDays('2026-03-10');

  it('takes CSV text and NDJSON numbers; an empty cell is null', () => {
    expect(importRow({ date: '2026-01-01', sessions: '12', revenue: '10.25', clicks: '' }, 2, days)).toEqual({
      row: expect.objectContaining({ date: '2026-01-01', sessions: 12, revenue: 10.25, clicks: null, brandId: null, domain: null }),
      problems: [],
    });
    expect(importRow({ date: '2026-01-01', conversions: 1.5, brandId: 7 }, 1, days).row).toMatchObject({ conversions: 1.5, brandId: 7 });
  });

  it('takes days from 2000-01-01 to tomorrow (UTC) and no others', () => {
    expect(days).toEqual({ first: '2000-01-01', last: '2026-03-11' });
    for (const date of ['2000-01-01', '2026-03-10', '2026-03-11']) expect(importRow({ date, sessions: '1' }, 2, days).problems).toEqual([]);
    for (const date of ['1900-01-01', '1999-12-31', '2026-03-12', '9999-12-31']) {
      expect(importRow({ date, sessions: '1' }, 2, days).problems).toEqual([{ line: 2, field: 'date', message: 'date must be from 2000-01-01 to 2026-03-11' }]);
    }
  });

  it.each([
    [{ date: '2026-02-30', sessions: '1' }, 'date'],
    [{ date: '01/02/2026', sessions: '1' }, 'date'],
    [{ date: '2026-01-01', sessions: '-1' }, 'sessions'],
    [{ date: '2026-01-01', revenue: '-0.01' }, 'revenue'],
    [{ date: '2026-01-01', revenue: -3 }, 'revenue'],
    [{ date: '2026-01-01', sessions: '1.5' }, 'sessions'],
    [{ date: '2026-01-01', sessions: '1e3' }, 'sessions'],
    [{ date: '2026-01-01', sessions: 'NaN' }, 'sessions'],
    [{ date: '2026-01-01', sessions: true }, 'sessions'],
    [{ date: '2026-01-01', sessions: '1', brandId: 'x' }, 'brandId'],
    [{ date: '2026-01-01' }, 'row'],
  ])('%j: a problem with %s, naming the line', (record, field) => {
    const { row, problems } = importRow(record, 9, days);
    expect(row).toBeNull();
    expect(problems.map((p) => [p.line, p.field])).toContainEqual([9, field]);
  });
});
