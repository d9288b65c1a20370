import { AnswerJudge, BudgetsRepository, JudgeBackfill, JudgeSettingsRepository } from '@libs/analysis';
import { EVENT_STORE, type EventStore } from '@libs/event-store';
import { Queues } from '@libs/queue';
import { BrandAccess } from '@libs/tenancy';
import { WorkerPartModule } from '../../apps/worker/src/worker.module';
import { startFakeProviders, type FakeProviders } from '../support/fake-providers';
import { startTestApi, type TestApi } from '../support/test-api';
import { until } from '../support/until';

/**
 * The sentiment judge end to end (issue 32 part 1): answers come from the fake Anthropic API
 * (provider `claude`), the judge is the fake OpenAI Responses API (structured output), so every
 * request the OpenAI fake sees is a judge call. The organisation turns the judge on; its labels
 * replace the offline model's in the answer's analysis, the sentiment figures move with them and
 * say how many answers each labeller decided; a malformed reply falls back and is counted; a 429
 * is retried after its Retry-After; an answer judged before is labelled from the cache (nothing asked).
 */
jest.setTimeout(120_000);

const JUDGE_MODEL = 'gpt-judge-test';
/** The judge model's price: high, so that a judge call costs more than an answer (the budget case), with a request fee judge calls must not pay (they search nothing). */
const JUDGE_PRICE = { inputPerMTok: 1000, outputPerMTok: 2000 };
let fakes: FakeProviders;
let api: TestApi;
let org: { id: number; key: string };
let brandId: number;

beforeAll(async () => {
  fakes = await startFakeProviders();
  api = await startTestApi(
    {
      ANTHROPIC_API_KEY: 'sk-ant-test',
      ANTHROPIC_BASE_URL: fakes.anthropic.baseUrl,
      SENTIMENT_JUDGE: 'openai',
      SENTIMENT_JUDGE_MODEL: JUDGE_MODEL,
      SENTIMENT_JUDGE_API_KEY: 'sk-judge-test',
      SENTIMENT_JUDGE_BASE_URL: fakes.openai.baseUrl,
      PROVIDER_PRICES: JSON.stringify([{ provider: 'chatgpt', model: JUDGE_MODEL, since: '2020-01-01', ...JUDGE_PRICE, requestUsd: 5 }]),
      ANSWER_BACKOFF_MS: '50',
      ANALYSIS_SCHEDULER_POLL_MS: '86400000',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    },
    [WorkerPartModule.forRoot()],
  );
  org = await api.organization();
  brandId = (await api.tenancy.createBrand({ organizationId: org.id, name: 'Acme', domain: 'acme.com', competitors: [{ name: 'Globex', domain: 'globex.com' }] })).id;
  // The judge disagrees with the offline model: Acme negative, Globex neutral (plus a name it was not asked about, ignored).
  fakes.openai.setJudgement((_answer, names) => [
    ...names.map((name) => ({ name, sentiment: name === 'Acme' ? 'negative' : 'neutral', evidence: `${name} per the judge` })),
    { name: 'Initech', sentiment: 'positive', evidence: 'not asked' },
  ]);
});
afterAll(async () => {
  await api?.close();
  await fakes?.close();
});

interface Summary {
  labelled: number;
  positive: number;
  neutral: number;
  negative: number;
  labelledBy: { judge: number; model: number; judgeFallbacks: number };
}

async function summary(): Promise<Summary> {
  await api.projected(['answer_rollups']);
  const r = await api.request({ url: `/api/v1/sentiment/summary?brandId=${brandId}`, key: org.key });
  expect(r.status).toBe(200);
  return r.body.data as Summary;
}

/** Asks one query of claude; resolves with the run id once it completed. */
async function audit(query: string): Promise<number> {
  const r = await api.request({ method: 'POST', url: '/api/v1/audit-requests', key: org.key, body: { brandId, queries: [query], providers: ['claude'] } });
  expect(r.status).toBe(201);
  const runId = r.body.data.analysisRunId as number;
  await until(
    async () => {
      await api.projected(['analysis_runs']);
      const [row] = await api.dataSource.query(`SELECT status FROM analysis_runs WHERE id = $1`, [runId]);
      return row?.status === 'completed';
    },
    60_000,
    `run ${runId} completed`,
  );
  return runId;
}

async function answerEvents(runId: number): Promise<{ type: string; data: Record<string, unknown> }[]> {
  const events = await api.app.get<EventStore>(EVENT_STORE).readStream(`answer-${runId}-0`);
  return events.map((e) => ({ type: e.type, data: e.data as Record<string, unknown> }));
}

async function judged(runId: number): Promise<Record<string, unknown>> {
  let found: Record<string, unknown> | undefined;
  await until(
    async () => {
      const events = await answerEvents(runId);
      found = events.find((e) => e.type === 'answer.judged')?.data;
      // The verdict is followed by the analysis carrying it (unless nothing changed).
      return found !== undefined && events[events.length - 1].type === 'answer.analysed';
    },
    30_000,
    `answer of run ${runId} judged`,
  ).catch(async (e: unknown) => {
    console.error(JSON.stringify(await answerEvents(runId), null, 1).slice(0, 6000));
    throw e;
  });
  return found!;
}

it('without the organisation turning it on, nothing is judged and the offline model labels every answer', async () => {
  const runId = await audit('best invoicing tool');
  const s = await summary();
  expect(s.labelled).toBe(1);
  expect(s.labelledBy).toEqual({ judge: 0, model: 1, judgeFallbacks: 0 });
  expect((await answerEvents(runId)).map((e) => e.type)).toEqual(['answer.recorded', 'answer.analysed']);
  expect(fakes.openai.requests).toHaveLength(0);
});

it("with it on, the judge's structured output labels the entities, the figures change and name the labeller", async () => {
  // Through the worker's own repository (a `judge set` from another process reaches workers within their 10 s cache).
  await api.app.get(JudgeSettingsRepository, { strict: false }).set(org.id, 'openai', null);
  const before = await summary();
  const offlineAcme = before.positive === 1 ? 'positive' : before.neutral === 1 ? 'neutral' : 'negative';
  expect(offlineAcme).not.toBe('negative');

  const runId = await audit('best invoicing tool for agencies');
  const verdict = await judged(runId);
  expect(verdict).toMatchObject({ labeller: `judge:openai/${JUDGE_MODEL}`, outcome: 'labelled', asked: 2, unknown: 1, cached: false, fallback: null });
  expect(verdict['labels']).toEqual([
    { entityId: `brand-${brandId}`, sentiment: 'negative', evidence: 'Acme per the judge' },
    expect.objectContaining({ sentiment: 'neutral', evidence: 'Globex per the judge' }),
  ]);
  const usage = verdict['usage'] as { inputTokens: number; outputTokens: number };
  expect(usage.inputTokens).toBeGreaterThan(0);
  expect(usage.outputTokens).toBeGreaterThan(0);

  // The judge request: structured output, no web search tool.
  expect(fakes.openai.requests).toHaveLength(1);
  const body = fakes.openai.requests[0].body as { model: string; tools?: unknown; text: { format: { type: string; name: string; strict: boolean } } };
  expect(body.model).toBe(JUDGE_MODEL);
  expect(body.tools).toBeUndefined();
  expect(body.text.format).toMatchObject({ type: 'json_schema', name: 'entity_sentiment', strict: true });

  // The run's cost counts the judge call's tokens exactly, under the provider whose key it used (chatgpt), priced at the judge model's tokens only.
  await api.projected(['answer_usage']);
  const cost = (await api.request({ url: `/api/v1/analysis-runs/${runId}`, key: org.key })).body.data.cost;
  const judgeUsd = Math.round(((usage.inputTokens * JUDGE_PRICE.inputPerMTok + usage.outputTokens * JUDGE_PRICE.outputPerMTok) / 1e6) * 1e6) / 1e6;
  const judgeCost = { inputTokens: usage.inputTokens, cachedInputTokens: 0, outputTokens: usage.outputTokens, usd: judgeUsd, unpricedAnswers: 0 };
  expect(judgeUsd).toBeGreaterThan(0);
  expect(cost.judge).toEqual(judgeCost);
  const [claude, chatgpt] = cost.byProvider as { provider: string; inputTokens: number; outputTokens: number; usd: number; judge: typeof judgeCost }[];
  expect(cost.byProvider).toHaveLength(2);
  expect(chatgpt).toEqual({ provider: 'chatgpt', ...judgeCost, judge: judgeCost });
  const answered = (await answerEvents(runId)).find((e) => e.type === 'answer.recorded')!.data['usage'] as { inputTokens: number; outputTokens: number };
  expect(claude).toMatchObject({ provider: 'claude', inputTokens: answered.inputTokens, outputTokens: answered.outputTokens, judge: { inputTokens: 0, outputTokens: 0, usd: 0 } });
  expect(cost).toMatchObject({ inputTokens: answered.inputTokens + usage.inputTokens, outputTokens: answered.outputTokens + usage.outputTokens, usd: expect.closeTo(claude.usd + judgeUsd, 6) });
  // And /usage's cost of the day.
  const today = new Date().toISOString().slice(0, 10);
  const day = ((await api.request({ url: '/api/v1/usage?days=1', key: org.key })).body.data.cost.daily as { date: string; judge: typeof judgeCost }[]).find((d) => d.date === today)!;
  expect(day.judge).toEqual(judgeCost);

  // The results carry the judge's label and who decided it.
  await api.projected(['analysis_results']);
  const results = await api.request({ url: `/api/v1/analysis-runs/${runId}/results`, key: org.key });
  const acme = (results.body.data[0].entities as { entityId: string; sentiment: string; labeller?: string }[]).find((e) => e.entityId === `brand-${brandId}`)!;
  expect(acme).toMatchObject({ sentiment: 'negative', labeller: `judge:openai/${JUDGE_MODEL}` });

  // Two labelled answers now: the first by the model (its label unchanged), the second by the judge (negative).
  await until(async () => (await summary()).labelledBy.judge === 1, 10_000, 'the rollups count the judged answer');
  const after = await summary();
  expect(after.labelled).toBe(2);
  expect(after.negative).toBe(before.negative + 1);
  expect(after.labelledBy).toEqual({ judge: 1, model: 1, judgeFallbacks: 0 });
  const index = await api.request({ url: `/api/v1/brand-index/latest?brandId=${brandId}`, key: org.key });
  expect((index.body.data.components as { name: string; labelledBy?: unknown }[]).find((c) => c.name === 'netSentiment')?.labelledBy).toEqual({ judge: 1, model: 1, judgeFallbacks: 0 });
});

it('a malformed judge reply keeps the offline label and is counted', async () => {
  const asked = fakes.openai.requests.length;
  fakes.openai.script({ malformed: true });
  const runId = await audit('invoicing software compared');
  const verdict = await judged(runId);
  expect(verdict).toMatchObject({ outcome: 'fallback', labels: [], fallback: expect.objectContaining({ kind: 'malformed' }) });
  expect(fakes.openai.requests.length).toBe(asked + 1); // not retried: a malformed reply will not get better
  await until(async () => (await summary()).labelledBy.judgeFallbacks === 1, 10_000, 'the fallback is counted');
  const s = await summary();
  expect(s.labelled).toBe(3);
  expect(s.labelledBy).toEqual({ judge: 1, model: 2, judgeFallbacks: 1 });
});

it('a 429 is retried through the queue after its Retry-After, then labelled', async () => {
  const asked = fakes.openai.requests.length;
  fakes.openai.script({ status: 429, retryAfter: '1' });
  const runId = await audit('cheapest invoicing app');
  const verdict = await judged(runId);
  expect(verdict).toMatchObject({ outcome: 'labelled', cached: false });
  const arrivals = fakes.openai.arrivals.slice(asked);
  expect(arrivals).toHaveLength(2);
  expect(arrivals[1] - arrivals[0]).toBeGreaterThanOrEqual(950);
  expect((await summary()).labelledBy.judge).toBe(2);
});

it('an answer judged before (same text, entities, prompt version and model) is labelled from the cache: nothing is asked', async () => {
  const asked = fakes.openai.requests.length;
  const runId = await audit('best invoicing tool for agencies');
  const verdict = await judged(runId);
  expect(verdict).toMatchObject({ outcome: 'labelled', cached: true, usage: null });
  expect(fakes.openai.requests.length).toBe(asked);
  await until(async () => (await summary()).labelledBy.judge === 3, 10_000, 'the cached verdict counts');
});

it('`answers judge` back-fills the answers recorded before the judge was on, through the queue, asking only once', async () => {
  const backfill = new JudgeBackfill(api.dataSource, api.app.get(AnswerJudge, { strict: false }), api.app.get(BrandAccess, { strict: false }), api.app.get(Queues, { strict: false }));
  const asked = fakes.openai.requests.length;
  const progress: number[] = [];
  const today = new Date().toISOString().slice(0, 10);
  const report = await backfill.run(brandId, today, { timeoutMs: 30_000, onProgress: (done) => progress.push(done) });
  // Five answers: the first was never judged (the judge was off), the others were.
  expect(report).toMatchObject({ answers: 5, enqueued: 5, pending: 0, labeller: `judge:openai/${JUDGE_MODEL}` });
  expect(progress[progress.length - 1]).toBe(5);
  expect(fakes.openai.requests.length).toBe(asked + 1);
  await until(async () => (await summary()).labelledBy.judge === 4, 10_000, 'the back-filled answer counts as judged');
  // Prompt insights count each prompt's answers per labeller too.
  await api.projected(['prompt_answers']);
  const insights = await api.request({ url: `/api/v1/prompts/insights?brandId=${brandId}&limit=100`, key: org.key });
  expect(insights.status).toBe(200);
  const byPrompt = new Map((insights.body.data as { prompt: { query: string }; sentiment: { labelledBy: Summary['labelledBy'] } }[]).map((p) => [p.prompt.query, p.sentiment.labelledBy]));
  expect(byPrompt.get('best invoicing tool for agencies')).toEqual({ judge: 2, model: 0, judgeFallbacks: 0 });
  expect(byPrompt.get('invoicing software compared')).toEqual({ judge: 0, model: 1, judgeFallbacks: 1 });
  expect(byPrompt.get('best invoicing tool')).toEqual({ judge: 1, model: 0, judgeFallbacks: 0 });
  // Again: every answer's verdict stands, nothing is asked.
  const again = await backfill.run(brandId, today, { timeoutMs: 30_000 });
  expect(again.pending).toBe(0);
  expect(fakes.openai.requests.length).toBe(asked + 1);
});

it('a judge call the month\'s budget cannot pay is not asked: the offline label stands, counted as a fallback, and a retry asks nothing', async () => {
  const before = await summary();
  const asked = fakes.openai.requests.length;
  // The month so far plus room for an answer (about a cent), not for a judge call (a dime or more at JUDGE_PRICE).
  const [{ committed }] = await api.dataSource.query(
    `SELECT coalesce(sum(CASE state WHEN 'settled' THEN usd WHEN 'reserved' THEN estimate_usd ELSE 0 END), 0)::float8 AS committed FROM answer_spend WHERE organization_id = $1`,
    [org.id],
  );
  await api.app.get(BudgetsRepository, { strict: false }).set(org.id, { monthlyUsd: Math.round((committed + 0.05) * 1e6) / 1e6 });
  const runId = await audit('invoicing tool on a budget');
  const verdict = await judged(runId);
  expect(verdict).toMatchObject({ outcome: 'fallback', labels: [], usage: null, fallback: expect.objectContaining({ kind: 'budget_exhausted' }) });
  expect(String((verdict['fallback'] as { reason: string }).reason)).toMatch(/month budget/);
  expect(fakes.openai.requests.length).toBe(asked);
  await until(async () => (await summary()).labelledBy.judgeFallbacks === before.labelledBy.judgeFallbacks + 1, 10_000, 'the skipped judge call is counted');
  // A retry (the job again) keeps the ledger's decision: still nothing asked, no second verdict.
  expect(await api.app.get(AnswerJudge, { strict: false }).judge(runId, 0, false)).toBe('already');
  expect(fakes.openai.requests.length).toBe(asked);
  await api.projected(['answer_usage']);
  const cost = (await api.request({ url: `/api/v1/analysis-runs/${runId}`, key: org.key })).body.data.cost;
  expect(cost.judge).toMatchObject({ inputTokens: 0, outputTokens: 0, usd: 0 });
  await api.app.get(BudgetsRepository, { strict: false }).set(org.id, { monthlyUsd: null });
});
