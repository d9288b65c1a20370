import { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { loadConfig, sectionOf } from '@libs/config';
import { createDataSource } from '@libs/database';
import { EventSchemaRegistry, PostgresEventStore, type RecordedEvent } from '@libs/event-store';
import { QUEUE_CONFIG, Queues } from '@libs/queue';
import { createRedis } from '@libs/redis';
import { TenancyRepository } from '@libs/tenancy';
import type { Redis } from 'ioredis';
import { createTestDatabase, testRedisPrefix, type TestDatabase } from '../../../../test/support/test-database';
import { ANALYSIS_CONFIG } from '../analysis.config';
import { BrandFactsRepository } from '../brand-facts.repository';
import { answerStreamId, runStreamId, type Provider } from '../domain';
import { answerRunner } from '../shared/analysis-streams';
import { Engines } from '../shared/engines/engine-registry';
import { RunRequests } from '../shared/run-requests';
import { SpendLedger } from '../shared/spend-ledger';
import { TrackedBrands } from '../shared/tracked-brands';
import { AnswerQuestionProcessor } from './answer-question.processor';
import { AnswerJudge } from '../shared/judge/answer-judge';
import { JudgeSettingsRepository } from '../shared/judge/judge-settings.repository';
import { RunProgress } from './run-progress';

/**
 * The answer processor's writes on the kit, against PostgreSQL and Redis: attempts of one question
 * racing (a stalled job given to a second worker) record one answer and one analysis between them;
 * a job that died after recording is finished by its retry without asking again; a run is started
 * and completed once. Providers without keys answer from the recorded source (no network).
 */
let db: TestDatabase;
let ds: DataSource;
let store: PostgresEventStore;
let redis: Redis;
let processor: AnswerQuestionProcessor;
/** A processor like `processor` on another store (a store that misbehaves on purpose). */
let processorOn: (store: PostgresEventStore) => AnswerQuestionProcessor;
let progress: RunProgress;
let runs: RunRequests;
let organizationId: number;
let brandId: number;

beforeAll(async () => {
  db = await createTestDatabase();
  ds = createDataSource(db.url, 4);
  await ds.initialize();
  store = new PostgresEventStore({ pool: new Pool({ connectionString: db.url, max: 8 }), ownsPool: true, connectionString: db.url, registry: new EventSchemaRegistry() });
  const config = loadConfig({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix() }, [ANALYSIS_CONFIG, QUEUE_CONFIG]);
  redis = createRedis(config);
  progress = new RunProgress(redis, store);
  const tenancy = new TenancyRepository(ds);
  const brands = new TrackedBrands(tenancy, new BrandFactsRepository(ds));
  const analysis = sectionOf(config, ANALYSIS_CONFIG);
  const queues = new Queues(sectionOf(config, QUEUE_CONFIG));
  processorOn = (on) => new AnswerQuestionProcessor(queues, on, analysis, new Engines(analysis), brands, progress, new SpendLedger(ds, analysis), new AnswerJudge(on, analysis, ds, new JudgeSettingsRepository(ds), queues, new SpendLedger(ds, analysis)));
  processor = processorOn(store);
  runs = new RunRequests(ds, store);
  organizationId = (await tenancy.createOrganization('Processor', 'enterprise')).id;
  brandId = (await tenancy.createBrand({ organizationId, name: 'Acme', domain: 'acme.com', competitors: [{ name: 'Globex', domain: 'globex.com' }] })).id;
});
afterAll(async () => {
  await redis?.quit();
  await store?.close();
  await ds?.destroy();
  await db?.drop();
});

const job = { attemptsMade: 0, opts: { attempts: 3 } };
const types = (events: RecordedEvent[]) => events.map((e) => e.type);

async function request(providers: readonly Provider[]): Promise<number> {
  return (await runs.request({ organizationId, brandId, trigger: 'api', questions: [{ promptId: null, query: 'best crm for agencies', providers }] })).runId;
}

describe('the answer processor on the analysis deciders', () => {
  it('a run: its request, one answer recorded and analysed per question, started and completed once', async () => {
    const runId = await request(['chatgpt', 'claude']);
    expect(await Promise.all([0, 1].map((n) => processor.process({ runId, n }, job)))).toEqual(['answer.recorded', 'answer.recorded']);
    const run = await store.readStream(runStreamId(runId));
    expect(types(run)).toEqual(['analysis_run.requested', 'analysis_run.started', 'analysis_run.completed']);
    expect(run[0].metadata).toMatchObject({ organizationId, actor: null });
    expect(run[2].data).toMatchObject({ runId, status: 'completed', answersRecorded: 2, answersFailed: 0 });
    for (const n of [0, 1]) {
      const answer = await store.readStream(answerStreamId(runId, n));
      expect(types(answer)).toEqual(['answer.recorded', 'answer.analysed']);
      // The answer and its first analysis are one append (one transaction).
      expect(answer[1].position.commit).toBe(answer[0].position.commit);
      expect(answer.map((e) => e.metadata.organizationId)).toEqual([organizationId, organizationId]);
      expect(answer[1].data).toMatchObject({ runId, n, organizationId, brandId, promptId: null, query: 'best crm for agencies', askedAt: answer[0].data.askedAt });
    }
    // The last job retried (it reports its answer again): nothing more is written.
    await processor.process({ runId, n: 1 }, job);
    expect(types(await store.readStream(runStreamId(runId)))).toHaveLength(3);
    expect(types(await store.readStream(answerStreamId(runId, 1)))).toHaveLength(2);
  });

  it('attempts of one question racing record one answer and one analysis between them', async () => {
    const runId = await request(['gemini']);
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => processor.process({ runId, n: 0 }, job)));
    expect(outcomes).toEqual(Array.from({ length: 6 }, () => 'answer.recorded'));
    expect(types(await store.readStream(answerStreamId(runId, 0)))).toEqual(['answer.recorded', 'answer.analysed']);
    expect(types(await store.readStream(runStreamId(runId)))).toEqual(['analysis_run.requested', 'analysis_run.started', 'analysis_run.completed']);
  });

  it('a job that died after recording its answer is finished by its retry: analysed, not asked again', async () => {
    const runId = await request(['perplexity']);
    const text = 'Only Acme is worth a look; see https://acme.com/pricing.';
    const answers = answerRunner(store);
    const key = { runId, n: 0, organizationId, brandId, promptId: null, query: 'best crm for agencies', provider: 'perplexity' as const };
    const answer = { ...key, model: 'sonar', source: 'live' as const, text, providerCitations: [], usage: null, latencyMs: 5, askedAt: '2026-01-02T03:04:05.000Z', raw: null };
    await answers.run(answerStreamId(runId, 0), () => ({ kind: 'record', answer }), { organizationId }, answers.newStream());
    expect(await processor.process({ runId, n: 0 }, job)).toBe('answer.recorded');
    const events = await store.readStream(answerStreamId(runId, 0));
    expect(types(events)).toEqual(['answer.recorded', 'answer.analysed']);
    expect(events[0].data.text).toBe(text); // the recorded answer stands: the retry did not ask
    expect(events[1].data).toMatchObject({ askedAt: '2026-01-02T03:04:05.000Z', entities: expect.arrayContaining([expect.objectContaining({ name: 'Acme', mentioned: true })]) });
  });

  it('an attempt whose answer another attempt recorded first analyses the answer that stands, not its own', async () => {
    const runId = await request(['claude']);
    const stream = answerStreamId(runId, 0);
    const text = 'Only Globex is worth a look; see https://globex.com.';
    const answers = answerRunner(store);
    const other = { runId, n: 0, organizationId, brandId, promptId: null, query: 'best crm for agencies', provider: 'claude' as const, model: 'claude', source: 'live' as const, text, providerCitations: [], usage: null, latencyMs: 5, askedAt: '2026-01-02T03:04:05.000Z', raw: null };
    let raced = false;
    // The other attempt records its answer between this one's read of the stream and its append.
    const racing = new Proxy(store, {
      get(target, key, receiver) {
        if (key === 'appendToStream') {
          return async (...args: Parameters<PostgresEventStore['appendToStream']>) => {
            if (args[0] === stream && !raced) {
              raced = true;
              await answers.run(stream, () => ({ kind: 'record', answer: other }), { organizationId }, answers.newStream());
            }
            return target.appendToStream(...args);
          };
        }
        const value = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    expect(await processorOn(racing).process({ runId, n: 0 }, job)).toBe('answer.recorded');
    expect(raced).toBe(true);
    const events = await store.readStream(stream);
    expect(types(events)).toEqual(['answer.recorded', 'answer.analysed']);
    expect(events[0].data.text).toBe(text);
    const entities = (events[1].data as { entities: { name: string; mentioned: boolean }[] }).entities;
    expect(entities.find((e) => e.name === 'Globex')?.mentioned).toBe(true);
    expect(entities.find((e) => e.name === 'Acme')?.mentioned).not.toBe(true);
  });

  it('a failed start leaves the start to a later job (the claim is given back)', async () => {
    const runId = await request(['chatgpt']);
    const failing = new Proxy(store, {
      get(target, key, receiver) {
        if (key === 'appendToStream') return async () => Promise.reject(new Error('connection lost'));
        const value = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await expect(new RunProgress(redis, failing).started(runId)).rejects.toThrow('connection lost');
    await progress.started(runId);
    await progress.started(runId);
    expect(types(await store.readStream(runStreamId(runId)))).toEqual(['analysis_run.requested', 'analysis_run.started']);
  });
});
