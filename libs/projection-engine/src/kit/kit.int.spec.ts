import { createTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import type { Projector } from '../projector';
import { projectorHarness, type ProjectorHarness } from '../testing';
import { CounterDeltas } from './counter-deltas';
import { columnList, rowReader } from './rows';
import { tableShape, upsertRows, upsertSql } from './upsert';

// A toy daily rollup with a numerator and a denominator, and a last-seen table: what analytics projectors keep.
const daily = tableShape<{ organization_id: number; brand_id: number; day: string; answers: number; mentions: number }>({
  table: 'kit_daily_mentions',
  columns: { organization_id: 'bigint', brand_id: 'bigint', day: 'date', answers: 'bigint', mentions: 'bigint' },
  key: ['organization_id', 'brand_id', 'day'],
});
const lastSeen = tableShape<{ brand_id: number; seen_at: string; note: string | null }>({
  table: 'kit_last_seen',
  columns: { brand_id: 'bigint', seen_at: 'timestamptz', note: 'text' },
  key: ['brand_id'],
});

const projector: Projector = {
  name: 'kit_toy',
  handles: ['answer.analysed', 'answer.retracted'],
  tables: [daily.table, lastSeen.table],
  async apply(events, context) {
    const deltas = new CounterDeltas(daily, ['answers', 'mentions']);
    const seen = new Map<number, { brand_id: number; seen_at: string; note: string | null }>();
    for (const e of events) {
      const brand = Number(e.data.brandId);
      const sign = e.type === 'answer.retracted' ? -1 : 1;
      deltas.add({ organization_id: 1, brand_id: brand, day: e.recordedAt.toISOString().slice(0, 10) }, { answers: sign, mentions: e.data.mentioned ? sign : 0 });
      seen.set(brand, { brand_id: brand, seen_at: e.recordedAt.toISOString(), note: (e.data.note as string | undefined) ?? null });
    }
    await deltas.flush(context);
    await upsertRows(context, lastSeen, [...seen.values()]);
  },
};

let db: TestDatabase;
let harness: ProjectorHarness;
beforeAll(async () => {
  db = await createTestDatabase();
  harness = projectorHarness(db.url, projector);
  await harness.sql(`CREATE TABLE kit_daily_mentions (organization_id bigint, brand_id bigint, day date, answers bigint NOT NULL, mentions bigint NOT NULL, PRIMARY KEY (organization_id, brand_id, day))`);
  await harness.sql(`CREATE TABLE kit_last_seen (brand_id bigint PRIMARY KEY, seen_at timestamptz NOT NULL, note text)`);
});
afterAll(async () => {
  await harness?.close();
  await db?.drop();
});
beforeEach(() => harness.reset());

const analysed = (brandId: number, mentioned: boolean, recordedAt?: Date, note?: string) => ({
  type: 'answer.analysed',
  streamId: `answer-${brandId}`,
  data: { brandId, mentioned, ...(note ? { note } : {}) },
  recordedAt,
});

describe('projection kit on PostgreSQL', () => {
  it('counter deltas add numerators and denominators to the stored cells, across batches', async () => {
    const day1 = new Date('2025-03-01T10:00:00Z');
    const day2 = new Date('2025-03-02T10:00:00Z');
    await harness.given([analysed(7, true, day1), analysed(7, false, day1), analysed(8, true, day1), analysed(7, true, day2)]);
    await harness.given([analysed(7, true, day1), { type: 'unrelated.event', streamId: 'x', data: {} }]);
    const rows = await harness.rows('kit_daily_mentions', 'brand_id, day', `brand_id::int, to_char(day, 'YYYY-MM-DD') AS day, answers::int, mentions::int`);
    expect(rows).toEqual([
      { brand_id: 7, day: '2025-03-01', answers: 3, mentions: 2 },
      { brand_id: 7, day: '2025-03-02', answers: 1, mentions: 1 },
      { brand_id: 8, day: '2025-03-01', answers: 1, mentions: 1 },
    ]);
  });

  it('deltas that cancel out in a batch write nothing; negative deltas subtract', async () => {
    const day = new Date('2025-03-01T10:00:00Z');
    await harness.given([analysed(7, true, day), { type: 'answer.retracted', streamId: 'answer-7', data: { brandId: 7, mentioned: true }, recordedAt: day }]);
    expect(await harness.rows('kit_daily_mentions', 'brand_id')).toEqual([]);
    await harness.given([analysed(7, true, day), analysed(7, true, day)]);
    await harness.given([{ type: 'answer.retracted', streamId: 'answer-7', data: { brandId: 7, mentioned: true }, recordedAt: day }]);
    expect(await harness.rows('kit_daily_mentions', 'brand_id', 'answers::int, mentions::int')).toEqual([{ answers: 1, mentions: 1 }]);
  });

  it('upsert replaces a row on its key, nulls included', async () => {
    await harness.given([analysed(7, true, new Date('2025-03-01T00:00:00Z'), 'first')]);
    await harness.given([analysed(7, true, new Date('2025-03-05T00:00:00Z'))]);
    expect(await harness.rows('kit_last_seen', 'brand_id', 'brand_id::int, seen_at, note')).toEqual([{ brand_id: 7, seen_at: new Date('2025-03-05T00:00:00Z'), note: null }]);
  });

  it('a failing batch leaves no row behind (one transaction)', async () => {
    const broken: Projector = { ...projector, apply: async (events, context) => (await projector.apply(events, context), Promise.reject(new Error('boom'))) };
    const h = projectorHarness(db.url, broken);
    try {
      await expect(h.given([analysed(9, true)])).rejects.toThrow('boom');
    } finally {
      await h.close();
    }
    expect(await harness.rows('kit_daily_mentions', 'brand_id')).toEqual([]);
  });

  it('a reader takes its column list and row mapping from the shape: rows come back as the projector wrote them', async () => {
    await harness.given([analysed(7, true, new Date('2025-03-01T10:00:00Z'), 'first'), analysed(8, false, new Date('2025-03-02T23:30:00Z'))]);
    const daily7 = (await harness.sql(`SELECT ${columnList(daily)} FROM kit_daily_mentions ORDER BY brand_id, day`)).map(rowReader(daily));
    expect(daily7).toEqual([
      { organization_id: 1, brand_id: 7, day: '2025-03-01', answers: 1, mentions: 1 },
      { organization_id: 1, brand_id: 8, day: '2025-03-02', answers: 1, mentions: 0 },
    ]);
    const seen = (await harness.sql(`SELECT ${columnList(lastSeen, ['note', 'seen_at'])} FROM kit_last_seen ORDER BY brand_id`)).map(rowReader(lastSeen, ['note', 'seen_at']));
    expect(seen).toEqual([
      { note: 'first', seen_at: '2025-03-01T10:00:00.000Z' },
      { note: null, seen_at: '2025-03-02T23:30:00.000Z' },
    ]);
    expect(columnList(lastSeen)).toBe('brand_id, seen_at, note');
    expect(() => columnList(lastSeen, ['nope' as 'note'])).toThrow('kit_last_seen: nope is not a column');
    expect(() => rowReader(lastSeen, ['nope' as 'note'])).toThrow('kit_last_seen: nope is not a column');
  });

  it('the upsert statement is one shape per table and conflict rule', () => {
    const text = upsertSql('"kit_daily_mentions"', daily, { kind: 'add', columns: ['answers', 'mentions'] });
    expect(text).toBe(upsertSql('"kit_daily_mentions"', daily, { kind: 'add', columns: ['answers', 'mentions'] }));
    expect(text).toContain('json_to_recordset($1::json) AS x("organization_id" bigint, "brand_id" bigint, "day" date, "answers" bigint, "mentions" bigint)');
    expect(text).toContain('ON CONFLICT ("organization_id", "brand_id", "day") DO UPDATE SET "answers" = t."answers" + EXCLUDED."answers"');
    expect(upsertSql('"kit_last_seen"', lastSeen, { kind: 'keep' })).toMatch(/DO NOTHING$/);
    expect(upsertSql('"kit_last_seen"', lastSeen, { kind: 'replace' })).toMatch(/DO UPDATE SET "seen_at" = EXCLUDED."seen_at", "note" = EXCLUDED."note"$/);
    expect(() => tableShape({ table: 't', columns: { a: 'text' }, key: ['b' as 'a'] })).toThrow('key column b');
    expect(() => new CounterDeltas(daily, ['nope' as 'answers'])).toThrow('counter nope');
  });
});
