import { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@libs/database';
import { EventSchemaRegistry, PostgresEventStore, type EventStore, type RecordedEvent } from '@libs/event-store';
import { TenancyRepository } from '@libs/tenancy';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { TrackedPromptsRepository } from '../tracked-prompts.repository';
import { AnswerHistorySeeder } from './answer-history-seeder';

/**
 * The history seeder writes, through the analysis deciders, exactly the streams live runs write: a
 * run stream requested → started → completed, an answer stream recorded → analysed per question;
 * in bulk where the store can, else stream by stream, with the same events either way.
 */
let db: TestDatabase;
let ds: DataSource;
let store: PostgresEventStore;
let tenancy: TenancyRepository;

beforeAll(async () => {
  db = await createTestDatabase();
  ds = createDataSource(db.url, 4);
  await ds.initialize();
  store = new PostgresEventStore({ pool: new Pool({ connectionString: db.url, max: 4 }), ownsPool: true, connectionString: db.url, registry: new EventSchemaRegistry() });
  tenancy = new TenancyRepository(ds);
});
afterAll(async () => {
  await store?.close();
  await ds?.destroy();
  await db?.drop();
});

async function seedBrand(name: string, target: EventStore) {
  const org = await tenancy.createOrganization(name, 'enterprise');
  const brand = await tenancy.createBrand({ organizationId: org.id, name: 'Acme', domain: 'acme.com', competitors: [{ name: 'Globex', domain: 'globex.com' }] });
  const prompts = new TrackedPromptsRepository(ds);
  const added = [];
  for (const query of ['best crm', 'crm for agencies']) {
    const r = await prompts.add(brand, { query, topic: null, tags: [], providers: ['chatgpt', 'gemini'], isActive: true });
    if ('prompt' in r) added.push(r.prompt);
  }
  const seeded = await new AnswerHistorySeeder(ds, target).seed({ organizationId: org.id, tracked: { brand, competitors: brand.competitors }, prompts: added, days: 3, lastDay: new Date('2026-03-03T00:00:00Z') });
  return { org, brand, seeded };
}

/** The organisation's streams in the order they were written, each read through the store. */
async function streamsOf(organizationId: number): Promise<Map<string, RecordedEvent[]>> {
  // The global feed's horizon waits for every transaction of the server (other databases' too): read stream by stream.
  const ids: { stream_id: string }[] = await ds.query(`SELECT stream_id FROM events WHERE (metadata->>'organizationId')::bigint = $1 GROUP BY stream_id ORDER BY min(global_position)`, [organizationId]);
  const streams = new Map<string, RecordedEvent[]>();
  for (const { stream_id } of ids) streams.set(stream_id, await store.readStream(stream_id));
  return streams;
}

/** A stream's events without what differs between two seeds: run, organisation, brand, prompt and entity ids. */
const shapeOf = (events: RecordedEvent[]) =>
  events.map((e) => {
    const { runId: _r, organizationId: _o, brandId: _b, promptId: _p, items, ...data } = e.data as Record<string, unknown>;
    const kept = { ...data, items: (items as { promptId: unknown }[] | undefined)?.map(({ promptId: _i, ...item }) => item) };
    return { type: e.type, position: Number(e.streamPosition), data: JSON.parse(JSON.stringify(kept).replace(/"(brand|competitor)-\d+"/g, '"$1-id"')), actor: e.metadata.actor };
  });

describe('AnswerHistorySeeder', () => {
  it('writes every run and answer the way live runs do, decided by the runs’ and the answers’ deciders', async () => {
    const { org, brand, seeded } = await seedBrand('Seeded', store);
    expect(seeded).toMatchObject({ runs: 3, answers: 12 });
    const streams = await streamsOf(org.id);
    const runs = [...streams].filter(([id]) => id.startsWith('analysis-run-'));
    const answers = [...streams].filter(([id]) => id.startsWith('answer-'));
    expect([runs.length, answers.length]).toEqual([3, 12]);
    for (const [, events] of runs) {
      expect(events.map((e) => e.type)).toEqual(['analysis_run.requested', 'analysis_run.started', 'analysis_run.completed']);
      const [requested, started, completed] = events.map((e) => e.data as Record<string, unknown>);
      expect(requested).toMatchObject({ organizationId: org.id, brandId: brand.id, trigger: 'seed', auditRequestId: null, queries: ['best crm', 'crm for agencies'], providers: ['chatgpt', 'gemini'] });
      expect(String(requested.requestedAt)).toMatch(/T06:00:00\.000Z$/);
      expect(started).toEqual({ runId: requested.runId, startedAt: requested.requestedAt });
      expect(completed).toEqual({ runId: requested.runId, status: 'completed', answersRecorded: 4, answersFailed: 0, completedAt: expect.stringMatching(/T06:00:03\.000Z$/) });
      for (const e of events) expect(e.metadata).toMatchObject({ organizationId: org.id, actor: 'seed:demo' });
    }
    for (const [id, events] of answers) {
      expect(events.map((e) => e.type)).toEqual(['answer.recorded', 'answer.analysed']);
      const [recorded, analysed] = events.map((e) => e.data as Record<string, unknown>);
      expect(`answer-${recorded.runId}-${recorded.n}`).toBe(id);
      expect(recorded).toMatchObject({ source: 'recorded', usage: null, latencyMs: 0 });
      const key = { runId: recorded.runId, n: recorded.n, organizationId: org.id, brandId: brand.id, promptId: recorded.promptId, query: recorded.query, provider: recorded.provider };
      expect(analysed).toMatchObject({ ...key, askedAt: recorded.askedAt, analysedAt: recorded.askedAt, engineVersion: expect.any(String) });
    }
  });

  it('a store without the bulk path gets the same streams, one "no stream" append each', async () => {
    const single = new Proxy(store, { get: (t, key, receiver) => (key === 'appendToNewStreams' ? undefined : ((v) => (typeof v === 'function' ? v.bind(t) : v))(Reflect.get(t, key, receiver))) });
    const bulk = await seedBrand('Bulk', store);
    const oneByOne = await seedBrand('One by one', single);
    const shapes = async (organizationId: number) => [...(await streamsOf(organizationId)).values()].map(shapeOf);
    const expected = await shapes(bulk.org.id);
    expect(expected).toHaveLength(15);
    expect(await shapes(oneByOne.org.id)).toEqual(expected);
  });
});
