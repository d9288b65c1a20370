import { ANSWER_DAILY_PROVIDER_ROLLUPS, ANSWER_DAILY_ROLLUPS, EMPTY_SUMS, ROLLUP_COUNTER_COLUMNS, ROLLUP_COUNTER_NAMES, rollupSumsSql } from '@libs/visibility';
import { ALL_PROJECTORS, ALL_TABLES } from '@projections';
import { ALL_MIGRATIONS } from '../apps/composition/migrations';
import { migratedTables, SchemaModel, shapeProblems, type MigratedTable } from './support/migration-schema';

/**
 * One schema per read model: every table a projector writes has one shape (ALL_TABLES), and each
 * shape is the table the migrations make (columns, their types, and a key a unique index backs,
 * as the upserts' ON CONFLICT needs), read from the migrations' SQL without a database.
 */
const tracked = new Set(ALL_TABLES.map((s) => s.table));
let tables: Map<string, MigratedTable>;
beforeAll(async () => {
  tables = await migratedTables(ALL_MIGRATIONS, tracked);
});

describe('read-model shapes', () => {
  it('every table a projector writes has exactly one shape, and every shape is a projector’s table', () => {
    const written = ALL_PROJECTORS.flatMap((p) => p.tables).sort();
    expect(ALL_TABLES.map((s) => s.table).sort()).toEqual(written);
    expect(new Set(written).size).toBe(written.length);
  });

  it.each(ALL_TABLES.map((s) => [s.table, s]))('%s: the shape is the migrated table', (_table, shape) => {
    expect(shapeProblems(shape, tables)).toEqual([]);
  });

  it('a shape that drifts from its migration is caught: a renamed, a missing, a retyped column, a key without an index', () => {
    const { rank_sum: _renamed, ...columns } = ANSWER_DAILY_ROLLUPS.columns;
    const drifted = { ...ANSWER_DAILY_ROLLUPS, columns: { ...columns, rank_total: 'integer' as const, score_sum: 'integer' as const } };
    expect(shapeProblems(drifted, tables)).toEqual([
      'answer_daily_rollups.score_sum: integer in the shape, float8 in the table',
      'answer_daily_rollups.rank_total: in the shape, not in the table',
      'answer_daily_rollups.rank_sum: in the table, not in the shape',
    ]);
    expect(shapeProblems({ ...ANSWER_DAILY_ROLLUPS, key: ['brand_id', 'day'] }, tables)).toEqual([
      'answer_daily_rollups: key (brand_id, day) is neither its primary key nor a unique index ((brand_id,country,day,entity_id,language,prompt_id,provider,query))',
    ]);
    expect(shapeProblems({ ...ANSWER_DAILY_ROLLUPS, table: 'answer_weekly_rollups' }, tables)).toEqual(['answer_weekly_rollups: no migration creates it']);
  });

  it('follows the migrations: added, dropped, renamed and retyped columns, keys added and dropped', () => {
    const model = new SchemaModel(new Set(['t']));
    model.apply(`CREATE TABLE t (id bigint PRIMARY KEY, a int4 NOT NULL DEFAULT 0, b double precision, c text[] NOT NULL, CHECK (a >= 0))`);
    model.apply(`ALTER TABLE t ADD COLUMN d timestamp with time zone, DROP COLUMN b, ADD COLUMN IF NOT EXISTS e numeric(12, 2)`);
    model.apply(`ALTER TABLE t RENAME COLUMN a TO f`);
    model.apply(`ALTER TABLE t ALTER COLUMN f TYPE bigint USING f::bigint, ALTER COLUMN f DROP DEFAULT`);
    model.apply(`ALTER TABLE t DROP CONSTRAINT t_pkey, ADD PRIMARY KEY (f, id)`);
    model.apply(`CREATE UNIQUE INDEX t_c_idx ON t (c)`);
    model.apply(`CREATE UNIQUE INDEX t_partial_idx ON t (d) WHERE d IS NOT NULL`);
    model.apply(`CREATE INDEX t_d_idx ON t (d DESC)`);
    const t = model.tables.get('t')!;
    expect(Object.fromEntries(t.columns)).toEqual({ id: 'bigint', f: 'bigint', c: 'text[]', d: 'timestamptz', e: 'numeric' });
    expect(t.primaryKey).toEqual(['f', 'id']);
    expect(Object.fromEntries(t.unique)).toEqual({ t_c_idx: ['c'] });
    model.apply(`DROP TABLE IF EXISTS t`);
    expect(model.tables.has('t')).toBe(false);
  });

  it('refuses a statement on a read-model table it does not understand rather than skip it', () => {
    const model = new SchemaModel(new Set(['t']));
    model.apply(`CREATE TABLE t (id bigint PRIMARY KEY)`);
    expect(() => model.apply(`ALTER TABLE t INHERIT other`)).toThrow('ALTER TABLE t INHERIT other: not understood');
    expect(() => model.apply(`CREATE TABLE t2 (LIKE t INCLUDING ALL)`)).not.toThrow(); // t2 is not a read model
    expect(() => new SchemaModel(new Set(['t2'])).apply(`CREATE TABLE t2 (LIKE t INCLUDING ALL)`)).toThrow('created LIKE another table');
  });
});

describe('the rollup counters: one list', () => {
  it('the table’s counter columns, the empty sums and the stored contribution order all come from ROLLUP_COUNTERS', () => {
    // The order an answer's contribution is stored in (answer_rollup_sources): append only.
    expect(ROLLUP_COUNTER_COLUMNS).toEqual(['answers', 'mentioned', 'mentions', 'ranked', 'rank_sum', 'top3', 'positive', 'neutral', 'negative', 'score_sum', 'cited', 'with_citations', 'citations', 'all_citations', 'visibility_sum', 'checkable', 'accurate', 'judged', 'judge_fallbacks']);
    expect(Object.keys(EMPTY_SUMS)).toEqual([...ROLLUP_COUNTER_NAMES]);
    expect(Object.keys(ANSWER_DAILY_ROLLUPS.columns).slice(-ROLLUP_COUNTER_COLUMNS.length)).toEqual([...ROLLUP_COUNTER_COLUMNS]);
    const { text } = rollupSumsSql({ organizationId: 1, brandId: 2, start: '2026-01-01', end: '2026-01-31' }, ['day']);
    ROLLUP_COUNTER_COLUMNS.forEach((column, i) => expect(text).toContain(`sum(${column})::${ANSWER_DAILY_ROLLUPS.columns[column] === 'integer' ? 'int' : 'float8'} AS "${ROLLUP_COUNTER_NAMES[i]}"`));
  });
});

describe('the provider rollups serve the reads they can serve exactly', () => {
  const f = { organizationId: 1, brandId: 2, start: '2026-01-01', end: '2026-12-31' };
  const tableOf = (text: string) => / FROM (\w+)/.exec(text)![1];

  it('no prompt, no query, whole counters: answer_daily_provider_rollups, with only those counters and the prompt parameter required null', () => {
    const { text, params } = rollupSumsSql(f, ['day', 'provider'], ['answers', 'mentions']);
    expect(tableOf(text)).toBe(ANSWER_DAILY_PROVIDER_ROLLUPS.table);
    expect(text).toContain('entity_id AS "entityId", sum(answers)::int AS "answers", sum(mentions)::int AS "mentions" FROM');
    expect(text).not.toContain('rank_sum');
    expect(text).not.toContain('prompt_id');
    expect(text).toContain('$6::bigint[] IS NULL');
    expect(params[5]).toBeNull();
  });

  it('a prompt filter, a query group or a real counter: the fine rollups', () => {
    expect(tableOf(rollupSumsSql({ ...f, promptIds: [7] }, ['day'], ['answers']).text)).toBe(ANSWER_DAILY_ROLLUPS.table);
    expect(tableOf(rollupSumsSql({ ...f, promptIds: [] }, ['day'], ['answers']).text)).toBe(ANSWER_DAILY_ROLLUPS.table);
    expect(tableOf(rollupSumsSql(f, ['provider', 'query'], ['answers']).text)).toBe(ANSWER_DAILY_ROLLUPS.table);
    expect(tableOf(rollupSumsSql(f, ['provider'], ['answers', 'visibilitySum']).text)).toBe(ANSWER_DAILY_ROLLUPS.table);
    expect(tableOf(rollupSumsSql(f, ['provider']).text)).toBe(ANSWER_DAILY_ROLLUPS.table);
  });
});
