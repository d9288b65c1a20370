import { AnswerQuestionProcessor } from '@libs/analysis';
import { WorkerPartModule } from '../../apps/worker/src/worker.module';
import { startFakeProviders, type FakeProviders } from '../support/fake-providers';
import { startTestApi, type TestApi } from '../support/test-api';
import { until } from '../support/until';
import { Receiver } from '../webhooks/support/receiver';

/**
 * Cost per run and budgets (issue 32 part 2) end to end: the API and the worker in one process,
 * ChatGPT on the local fake of the OpenAI Responses API (reporting usage in its wire format), the
 * other providers on the recorded source (no key: no cost). OpenAI's concurrency is 1, so a
 * run's questions are asked in their order and a budget stops at a known answer.
 *
 * With the fake's usage fixed at 10,000 input tokens (2,000 of them cached) and 1,000 output
 * tokens, an answer of gpt-4.1-mini costs, at the default prices ($0.40 / $0.10 cached / $1.60 per
 * million, $0.01 a web search): 8,000 × 0.4 + 2,000 × 0.1 + 1,000 × 1.6 = $0.005 + $0.01 = $0.015.
 */
const ANSWER_USD = 0.015;
/** A cost figure of nothing spent. */
const NOTHING = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, usd: 0, unpricedAnswers: 0 };
let fakes: FakeProviders;
let api: TestApi;
let org: { id: number; key: string; keyId: number };
let brand: number;
const receiver = new Receiver();

beforeAll(async () => {
  fakes = await startFakeProviders();
  await receiver.start();
  api = await startTestApi(
    {
      OPENAI_API_KEY: 'sk-test-openai',
      OPENAI_BASE_URL: fakes.openai.baseUrl,
      OPENAI_CONCURRENCY: '1',
      ANSWER_BACKOFF_MS: '50',
      ANSWER_ATTEMPTS: '2',
      ANSWER_TIMEOUT_MS: '5000',
      ANALYSIS_SCHEDULER_POLL_MS: '86400000',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_RELAY_POLL_MS: '100',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    },
    [WorkerPartModule.forRoot()],
  );
  org = await api.organization();
  brand = (await api.tenancy.createBrand({ organizationId: org.id, name: 'Acme', domain: 'acme.com', competitors: [{ name: 'Globex', domain: 'globex.com' }] })).id;
});
afterAll(async () => {
  await api?.close();
  await receiver.stop();
  await fakes?.close();
});

const PROJECTIONS = ['analysis_runs', 'analysis_results', 'answer_usage', 'webhook_deliveries'];

async function audit(queries: string[], providers: string[] = ['chatgpt']): Promise<number> {
  const r = await api.request({ method: 'POST', url: '/api/v1/audit-requests', key: org.key, body: { brandId: brand, queries, providers } });
  expect(r.status).toBe(201);
  return r.body.data.analysisRunId as number;
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function ended(runId: number): Promise<Json> {
  let run: Json = {};
  await until(async () => {
    await api.projected(PROJECTIONS);
    run = (await api.request({ url: `/api/v1/analysis-runs/${runId}`, key: org.key })).body.data;
    return ['completed', 'partial', 'failed'].includes(run.status as string);
  }, 30_000, `run ${runId} ended`);
  await api.projected(PROJECTIONS);
  return (await api.request({ url: `/api/v1/analysis-runs/${runId}`, key: org.key })).body.data;
}

const setBudgets = (body: unknown, key = org.key) => api.request({ method: 'PUT', url: '/api/v1/budgets', key, body });
const queries = (n: number, tag: string) => Array.from({ length: n }, (_, k) => `${tag} question ${k}`);

describe('cost per run and budgets', () => {
  const runs: number[] = [];

  it('a dry run returns the expected cost and asks nothing, records nothing', async () => {
    const eventsBefore = (await api.dataSource.query(`SELECT count(*)::int AS n FROM events`))[0].n;
    const r = await api.request({ method: 'POST', url: '/api/v1/audit-requests', key: org.key, body: { brandId: brand, queries: queries(3, 'dry'), providers: ['chatgpt', 'claude'], dryRun: true } });
    expect(r.status).toBe(200);
    // No answers yet: the typical usage of a ChatGPT search (8,000 in, 600 out); Claude has no key (recorded source, free).
    const one = (8000 * 0.4 + 600 * 1.6) / 1e6 + 0.01;
    expect(r.body.data.estimate).toEqual({
      questions: 6,
      inputTokens: 24_000,
      outputTokens: 1800,
      usd: expect.closeTo(3 * one, 6),
      byProvider: [
        { provider: 'chatgpt', questions: 3, source: 'live', inputTokens: 24_000, outputTokens: 1800, usd: expect.closeTo(3 * one, 6) },
        { provider: 'claude', questions: 3, source: 'recorded', inputTokens: 0, outputTokens: 0, usd: 0 },
      ],
    });
    expect(fakes.openai.requests).toHaveLength(0);
    expect((await api.dataSource.query(`SELECT count(*)::int AS n FROM events`))[0].n).toBe(eventsBefore);
  });

  it("a run's cost on GET /analysis-runs/{id}: tokens from the provider's usage fields, USD at the day's prices, per provider", async () => {
    fakes.openai.setUsage({ input: 10_000, cachedInput: 2000, output: 1000 });
    const runId = await audit(queries(2, 'costed'), ['chatgpt', 'perplexity']);
    runs.push(runId);
    const run = await ended(runId);
    expect(run).toMatchObject({ status: 'completed', reason: null, answersNotAsked: 0, answersRecorded: 4 });
    expect(run.cost).toEqual({
      inputTokens: 20_000,
      cachedInputTokens: 4000,
      outputTokens: 2000,
      usd: expect.closeTo(2 * ANSWER_USD, 6),
      unpricedAnswers: 0,
      // No judge on: no judge calls (sentiment-judge.e2e proves a run's cost counts them).
      judge: NOTHING,
      byProvider: [
        { provider: 'chatgpt', inputTokens: 20_000, cachedInputTokens: 4000, outputTokens: 2000, usd: expect.closeTo(2 * ANSWER_USD, 6), unpricedAnswers: 0, judge: NOTHING },
        // No key: the recorded source answered, at no cost.
        { provider: 'perplexity', ...NOTHING, judge: NOTHING },
      ],
    });
    expect(fakes.openai.requests).toHaveLength(2);
    // The dry run now estimates from the organisation's own answers.
    const dry = await api.request({ method: 'POST', url: '/api/v1/audit-requests', key: org.key, body: { brandId: brand, queries: ['x'], providers: ['chatgpt'], dryRun: true } });
    expect(dry.body.data.estimate).toMatchObject({ questions: 1, inputTokens: 10_000, outputTokens: 1000, usd: expect.closeTo(ANSWER_USD, 6) });
    expect(fakes.openai.requests).toHaveLength(2);
  });

  it('a per-run budget stops the run before the answer that would exceed it: partial, budget_exhausted, webhook fired', async () => {
    const hook = await api.request({ method: 'POST', url: '/api/v1/webhooks', key: org.key, body: { url: receiver.url('/runs'), events: ['analysis_run.completed'] } });
    expect(hook.status).toBe(201);
    receiver.register('/runs', hook.body.data.secret);
    // $0.04 takes two answers ($0.03); a third would make $0.045.
    const set = await setBudgets({ perRunUsd: 0.04 });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ organizationId: org.id, perRunUsd: 0.04, monthlyUsd: null, currentMonth: { spentUsd: expect.closeTo(2 * ANSWER_USD, 6), reservedUsd: 0 } });

    fakes.openai.reset();
    fakes.openai.setUsage({ input: 10_000, cachedInput: 2000, output: 1000 });
    const runId = await audit(queries(5, 'budgeted'));
    runs.push(runId);
    const run = await ended(runId);
    expect(run).toMatchObject({ status: 'partial', reason: 'budget_exhausted', answersExpected: 5, answersRecorded: 2, answersFailed: 3, answersNotAsked: 3 });
    expect(run.cost).toMatchObject({ inputTokens: 20_000, outputTokens: 2000, usd: expect.closeTo(2 * ANSWER_USD, 6) });
    // Asked exactly the first two questions, in order; the rest never reached the provider.
    expect(fakes.openai.requests.map((r) => (r.body as { input: string }).input)).toEqual(['budgeted question 0', 'budgeted question 1']);
    const results = (await api.request({ url: `/api/v1/analysis-runs/${runId}/results?order=asc`, key: org.key })).body.data as { status: string; error: string | null }[];
    expect(results.map((r) => r.status)).toEqual(['answered', 'answered', 'failed', 'failed', 'failed']);
    for (const r of results.slice(2)) expect(r.error).toMatch(/not asked: the run's budget of \$0\.04 would be exceeded/);

    await until(async () => receiver.on('/runs').some((d) => d.body.data.id === runId), 10_000, 'the run webhook');
    const delivery = receiver.on('/runs').find((d) => d.body.data.id === runId)!;
    expect(delivery.verified).toBe(true);
    expect(delivery.body).toMatchObject({ type: 'analysis_run.completed', data: { id: runId, status: 'partial', reason: 'budget_exhausted', answersNotAsked: 3 } });
  });

  it('a retried job asks nothing again and counts nothing twice', async () => {
    const runId = runs[1];
    const processor = api.app.get(AnswerQuestionProcessor);
    const ledger = async () => api.dataSource.query(`SELECT n, state, usd::float8 AS usd FROM answer_spend WHERE run_id = $1 ORDER BY n`, [runId]);
    const before = await ledger();
    expect(before.map((r: { state: string }) => r.state)).toEqual(['settled', 'settled', 'not_asked', 'not_asked', 'not_asked']);
    const asked = fakes.openai.requests.length;
    // A job of an answered question and one of a question the budget stopped, each given again (a worker that died before acknowledging them).
    for (const n of [1, 2]) await processor.process({ runId, n }, { attemptsMade: 1, opts: { attempts: 2 } });
    expect(fakes.openai.requests).toHaveLength(asked);
    expect(await ledger()).toEqual(before);
    const counts = await api.dataSource.query(`SELECT type, count(*)::int AS n FROM events WHERE stream_id = ANY($1) GROUP BY type ORDER BY type`, [[`answer-${runId}-1`, `answer-${runId}-2`]]);
    expect(counts).toEqual([
      { type: 'answer.analysed', n: 1 },
      { type: 'answer.failed', n: 1 },
      { type: 'answer.recorded', n: 1 },
    ]);
  });

  it("a monthly budget counts the organisation's other runs", async () => {
    // $0.06 spent this month; $0.08 takes one more answer ($0.075), not two ($0.09).
    const set = await setBudgets({ perRunUsd: null, monthlyUsd: 0.08 });
    expect(set.body.data).toMatchObject({ perRunUsd: null, monthlyUsd: 0.08, currentMonth: { spentUsd: expect.closeTo(4 * ANSWER_USD, 6) } });
    fakes.openai.reset();
    fakes.openai.setUsage({ input: 10_000, cachedInput: 2000, output: 1000 });
    const runId = await audit(queries(3, 'monthly'));
    runs.push(runId);
    const run = await ended(runId);
    expect(run).toMatchObject({ status: 'partial', reason: 'budget_exhausted', answersRecorded: 1, answersNotAsked: 2 });
    expect(fakes.openai.requests).toHaveLength(1);
    const results = (await api.request({ url: `/api/v1/analysis-runs/${runId}/results?order=asc`, key: org.key })).body.data as { error: string | null }[];
    expect(results[1].error).toMatch(/monthly budget of \$0\.08/);
    expect((await api.request({ url: '/api/v1/budgets', key: org.key })).body.data).toMatchObject({ monthlyUsd: 0.08, currentMonth: { spentUsd: expect.closeTo(5 * ANSWER_USD, 6), reservedUsd: 0 } });
    await setBudgets({ monthlyUsd: null });
  });

  it('/usage reports the cost per day, the sum of the runs', async () => {
    const r = await api.request({ url: '/api/v1/usage?days=3', key: org.key });
    expect(r.status).toBe(200);
    const cost = r.body.data.cost;
    expect(cost.daily.map((d: { date: string }) => d.date)).toEqual(r.body.data.daily.map((d: { date: string }) => d.date));
    const today = new Date().toISOString().slice(0, 10);
    const totals = { inputTokens: 50_000, cachedInputTokens: 10_000, outputTokens: 5000, usd: expect.closeTo(5 * ANSWER_USD, 6), unpricedAnswers: 0 };
    expect(cost).toMatchObject(totals);
    expect(cost.daily.find((d: { date: string }) => d.date === today)).toEqual({ date: today, ...totals, judge: NOTHING });
    for (const d of cost.daily.filter((x: { date: string }) => x.date !== today)) expect(d).toEqual({ date: d.date, ...NOTHING, judge: NOTHING });
    // Another organisation sees none of it.
    const other = await api.organization();
    expect((await api.request({ url: '/api/v1/usage?days=3', key: other.key })).body.data.cost).toMatchObject({ inputTokens: 0, usd: 0 });
  });

  it('refuses bad budgets and bad dry runs with the error object; setting budgets needs write:budgets on an organisation-wide key', async () => {
    const cases: [unknown, string][] = [
      [{ perRunUsd: -1 }, 'perRunUsd'],
      [{ monthlyUsd: -0.01 }, 'monthlyUsd'],
      [{ monthlyUsd: '5' }, 'monthlyUsd'],
      [{ monthlyUsd: 1e12 }, 'monthlyUsd'],
      [{ perRunUsd: 0.0000001 }, 'perRunUsd'],
      [{ perRunUsd: 1, extra: true }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const r = await setBudgets(body);
      expect([JSON.stringify(body), r.status, r.body.error?.code]).toEqual([JSON.stringify(body), 400, 'VALIDATION_ERROR']);
      expect(r.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    const dry = await api.request({ method: 'POST', url: '/api/v1/audit-requests', key: org.key, body: { brandId: brand, queries: ['x'], dryRun: 'yes' } });
    expect(dry.status).toBe(400);
    expect(dry.body.error.details.fields.map((f: { field: string }) => f.field)).toContain('dryRun');

    const reader = await api.organization({ scopes: ['read:usage'] });
    const refused = await setBudgets({ perRunUsd: 1 }, reader.key);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE' });
    expect((await api.request({ url: '/api/v1/budgets', key: reader.key })).status).toBe(200);

    const client = await api.tenancy.createClient(org.id, 'Client A');
    const bound = await api.keys.create({ organizationId: org.id, scopes: ['write:budgets', 'read:usage'], clientId: client.id });
    const byClient = await setBudgets({ perRunUsd: 1 }, bound.key);
    expect(byClient.status).toBe(403);
    expect(byClient.body.error.code).toBe('INSUFFICIENT_SCOPE');
    // Nothing changed.
    expect((await api.request({ url: '/api/v1/budgets', key: org.key })).body.data).toMatchObject({ perRunUsd: null, monthlyUsd: null });
  });
});
