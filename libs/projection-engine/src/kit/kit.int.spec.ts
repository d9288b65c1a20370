import { Pool } from 'pg';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import type { Projector } from '../projector';
import { projectorHarness, type ProjectorHarness } from '../testing';
import { binaryCopyable, copyBinaryRows, copyRows } from './copy-rows';
import { CounterDeltas } from './counter-deltas';
import { columnList, rowReader } from './rows';
import { SeenKeys } from './seen-keys';
import { tableShape, upsertRows, upsertSql, type ColumnType } from './upsert';

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

  it('COPY in binary writes what COPY in text writes: numbers, negative and large keys, dates, text of any length and character, JSON, nulls', async () => {
    const columns = { id: 'bigint', n: 'integer', s: 'smallint', x: 'float8', ok: 'boolean', day: 'date', note: 'text', doc: 'jsonb' } as const satisfies Record<string, ColumnType>;
    expect(binaryCopyable(Object.values(columns))).toBe(true);
    expect(binaryCopyable(['text', 'timestamptz'])).toBe(false);
    const long = 'é\\t\tx\n'.repeat(20_000); // over a 64 KB chunk, escapes and a two-byte character
    const rows = [
      [1, 2, 3, 0.1 + 0.2, true, '2025-03-01', 'plain', { a: [1, 2.5, null], b: 'ü\n' }],
      [-1, -2_147_483_648, -32_768, -1e-17, false, '1999-12-31', long, 'null'],
      [2 ** 53 - 1, 2_147_483_647, 32_767, 1e300, null, '2000-01-01', '', []],
      ['-9223372036854775808', null, null, -0, true, '2000-03-01', null, null],
    ];
    const pool = new Pool({ connectionString: db.url, max: 1 });
    const client = await pool.connect();
    try {
      const definition = Object.entries(columns).map(([c, t]) => `${c} ${t}`).join(', ');
      await client.query(`CREATE TABLE kit_copy_text (${definition}); CREATE TABLE kit_copy_binary (${definition})`);
      await copyRows(client, 'kit_copy_text', Object.keys(columns), rows);
      await copyBinaryRows(client, 'kit_copy_binary', Object.entries(columns) as [string, (typeof columns)[keyof typeof columns]][], rows);
      const read = async (table: string) => (await client.query(`SELECT id::text, n, s, x, ok, day::text, note, doc FROM ${table} t ORDER BY t.id`)).rows;
      const binary = await read('kit_copy_binary');
      expect(binary).toEqual(await read('kit_copy_text'));
      expect(binary.map((r) => r.id)).toEqual(['-9223372036854775808', '-1', '1', String(2 ** 53 - 1)]);
      expect(binary.find((r) => r.id === '1')).toMatchObject({ x: 0.1 + 0.2, doc: { a: [1, 2.5, null], b: 'ü\n' } });
      expect(binary.find((r) => r.id === '-1')?.note).toBe(long);
      expect(Object.is(binary[0].x, 0)).toBe(true); // -0 written as 0, as the text format (and JSON) write it
      // 2,000 rows of long texts: many chunks, rows split across them.
      const many = Array.from({ length: 2_000 }, (_, i) => [i, i, 1, i / 3, true, '2025-01-01', long.slice(0, 100 + i), { i }]);
      await client.query('TRUNCATE kit_copy_binary');
      await copyBinaryRows(client, 'kit_copy_binary', Object.entries(columns) as [string, (typeof columns)[keyof typeof columns]][], many);
      const back = (await client.query(`SELECT id::int, x, length(note) AS len, doc FROM kit_copy_binary ORDER BY id`)).rows;
      expect(back).toEqual(many.map(([i, , , x, , , note]) => ({ id: i, x, len: (note as string).length, doc: { i } })));
    } finally {
      client.release();
      await pool.end();
    }
  });

  it('a set of keys seen says no only for a key never added', () => {
    const seen = new SeenKeys(20);
    const keys = Array.from({ length: 50_000 }, (_, i) => `cell\0${i}\0é`);
    const firstTime = keys.filter((k) => seen.add(k)).length;
    expect(firstTime).toBeLessThan(500); // false positives: about 0.1% at this fill
    expect(keys.every((k) => seen.add(k))).toBe(true);
    expect(() => new SeenKeys(40)).toThrow('out of range');
  });
});
