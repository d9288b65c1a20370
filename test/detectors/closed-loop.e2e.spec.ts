import { CommandBus } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AnswerFactsReads, ChannelOutcomeReads, CrawlBlockPass, DETECTORS_CONFIG, DetectorPass, DetectorPassProcessor, DetectorThresholdsRepository, droppedFromTop3, VerifyingOpportunities, type DetectorDefinition, type DetectorsConfig } from '@libs/detectors';
import { OpportunityRepository } from '@libs/opportunities';
import { TenancyRepository } from '@libs/tenancy';
import { WorkerPartModule } from '../../apps/worker/src/worker.module';
import { cli } from '../support/cli';
import { defaultAnswer, fakeProviderEnv, startFakeProviders, type FakeProviders } from '../support/fake-providers';
import { startTestApi, type TestApi } from '../support/test-api';
import { until } from '../support/until';
import { Receiver } from '../webhooks/support/receiver';

/**
 * The closed loop end to end (issue 19): the API and the worker in one process, the four
 * providers' local fakes behind the real SDK clients, a webhook subscriber verifying every
 * signature. Answers drop the brand from the top 3 → the detector opens `dropped_from_top3`; the
 * opportunity is moved to fix_deployed and verifying; the fakes answer with the brand back on
 * top → the next runs verify it and resolve it (actor system); after the outcome window the
 * outcome is finalised; the subscriber gets the four events, signed, in order.
 */
let fakes: FakeProviders;
let api: TestApi;
let org: { id: number; key: string };
let brand: number;
const receiver = new Receiver();

const OUTCOME_WINDOW_DAYS = 8 / 86_400; // eight seconds
const ALL_FAKES = () => [fakes.openai, fakes.anthropic, fakes.gemini, fakes.perplexity];

function env(): Record<string, string> {
  return {
    ...fakeProviderEnv(fakes),
    ANSWER_BACKOFF_MS: '50',
    ANSWER_ATTEMPTS: '2',
    ANSWER_TIMEOUT_MS: '5000',
    ANALYSIS_SCHEDULER_POLL_MS: '86400000',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_RETRY_SCHEDULE_MS: '100,200,300',
    WEBHOOK_RELAY_POLL_MS: '100',
    DETECTOR_OUTCOME_POLL_MS: '300',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
  };
}

/** An organisation of its own with a client and its brand Acme (three competitors) and small samples: 3 answers a window. */
async function acme(): Promise<{ org: { id: number; key: string }; brand: number }> {
  const o = await api.organization();
  const client = await api.tenancy.createClient(o.id, 'Acme Inc');
  const b = (await api.tenancy.createBrand({ organizationId: o.id, clientId: client.id, name: 'Acme', domain: 'acme.com', competitors: [{ name: 'Globex', domain: 'globex.com' }, { name: 'Initech', domain: 'initech.io' }, { name: 'Hooli', domain: 'hooli.com' }] })).id;
  const repo = api.app.get(DetectorThresholdsRepository);
  await repo.set(o.id, { ...(await repo.of(o.id)).thresholds, minSamples: 3, recentAnswers: 3, baselineAnswers: 3, outcomeWindowDays: OUTCOME_WINDOW_DAYS });
  return { org: o, brand: b };
}

beforeAll(async () => {
  fakes = await startFakeProviders();
  await receiver.start();
  api = await startTestApi(env(), [WorkerPartModule.forRoot()]);
});
beforeEach(async () => {
  for (const f of ALL_FAKES()) f.reset();
  ({ org, brand } = await acme());
});
afterAll(async () => {
  await api?.close();
  await fakes?.close();
  await receiver.stop();
});


/** Acme fourth of four: out of the top 3. */
const acmeFourth = (query: string) => ({
  text: `For "${query}", the options are: 1. Globex, the leader. 2. Initech, cheaper for small teams. 3. Hooli, for enterprises. 4. Acme, a newer option.`,
  citations: [{ url: 'https://globex.com/compare', title: 'Globex' }],
});

async function runAudit(brandId: number, queries: string[], providers: string[]): Promise<number> {
  const r = await api.request({ method: 'POST', url: '/api/v1/audit-requests', key: org.key, body: { brandId, queries, providers } });
  expect(r.status).toBe(201);
  const runId = r.body.data.analysisRunId as number;
  await until(async () => {
    const run = await api.request({ url: `/api/v1/analysis-runs/${runId}`, key: org.key });
    return ['completed', 'partial', 'failed'].includes(run.body.data?.status);
  }, 30_000, `run ${runId} ended`);
  // The detectors react to the run's completion: wait until they have (their checkpoint passed it)
  // and the brands' passes they queued have run.
  await api.projected(['detectors']);
  await until(() => api.app.get(DetectorPassProcessor).idle(), 30_000, 'the detector passes queued');
  return runId;
}

async function opportunities(brandId: number) {
  await api.projected(['opportunities']);
  const r = await api.request({ url: `/api/v1/opportunities?brandId=${brandId}&includeTerminal=true&limit=200`, key: org.key });
  expect(r.status).toBe(200);
  return r.body.data as { id: number; type: string; status: string; source: string; fingerprint: string; evidence: Record<string, any>; verification: { status: string | null }; outcome: any; recurrenceOf: number | null }[]; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function get(id: number) {
  await api.projected(['opportunities', 'opportunity_counts', 'opportunity_outcomes']);
  return (await api.request({ url: `/api/v1/opportunities/${id}`, key: org.key })).body.data;
}

describe('the closed loop', () => {
  it('thresholds per organisation through the CLI; a setting out of range is refused naming it', async () => {
    const cliEnv = { DATABASE_URL: api.db.url, REDIS_PREFIX: api.config.redisPrefix };
    const bad = await cli(['detectors', 'thresholds', '--org', String(org.id), '--set', 'alpha=0.5'], cliEnv);
    expect(bad).toMatchObject({ code: 2, stderr: expect.stringMatching(/alpha must be significance level, above 0 and at most 0.2 \(got "0.5"\)/) });
    // --set changes the named settings over the organisation's current ones.
    const set = await cli(['--json', 'detectors', 'thresholds', '--org', String(org.id), '--set', 'alpha=0.01,minEffect=0.2'], cliEnv);
    expect(set).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(set.stdout)).toMatchObject({ organizationId: org.id, thresholds: { alpha: 0.01, minEffect: 0.2, minSamples: 3, recentAnswers: 3 } });
    expect(JSON.parse(set.stdout).custom.sort()).toEqual(['alpha', 'baselineAnswers', 'minEffect', 'minSamples', 'outcomeWindowDays', 'recentAnswers']);
  }, 240_000);

  it('detects a drop from the top 3, verifies the fix on later answers, resolves it and finalises its outcome; the subscriber gets the four events signed, ordered by their stream revision', async () => {
    const hook = await api.request({ method: 'POST', url: '/api/v1/webhooks', key: org.key, body: { url: receiver.url('/loop'), events: ['opportunity.opened', 'verification.completed', 'opportunity.resolved', 'outcome.finalized'] } });
    expect(hook.status).toBe(201);
    receiver.register('/loop', hook.body.data.secret);

    // Three runs with Acme first, three with Acme fourth.
    for (let i = 0; i < 3; i++) await runAudit(brand, ['best crm tool'], ['chatgpt']);
    expect(await opportunities(brand)).toEqual([]);
    fakes.openai.setAnswer(acmeFourth);
    for (let i = 0; i < 2; i++) await runAudit(brand, ['best crm tool'], ['chatgpt']);
    expect(await opportunities(brand)).toEqual([]); // not enough answers of the drop yet
    await runAudit(brand, ['best crm tool'], ['chatgpt']);

    const opened = (await opportunities(brand)).filter((o) => o.type === 'dropped_from_top3');
    expect(opened).toHaveLength(1);
    const opp = opened[0];
    expect(opp).toMatchObject({ status: 'detected', source: 'detector:dropped_from_top3', fingerprint: `dropped_from_top3:${brand}:q:best crm tool:chatgpt`, recurrenceOf: null });
    expect(opp.evidence).toMatchObject({
      metric: 'top3Rate',
      before: { k: 3, n: 3, value: 1 },
      after: { k: 0, n: 3, value: 0 },
      test: { name: expect.stringMatching(/two-proportion/), alpha: 0.05, minSamples: 3 },
      scope: { brandId: brand, promptId: null, query: 'best crm tool', provider: 'chatgpt' },
    });
    expect(opp.evidence.test.pValue).toBeLessThan(0.05);
    expect(opp.evidence.examples).toHaveLength(3);
    const example = opp.evidence.examples[0];
    const results = await api.request({ url: example.link.split('#')[0], key: org.key });
    expect(results.status).toBe(200);
    expect(results.body.data.map((r: { id: string }) => r.id)).toContain(example.resultId);

    // A re-run of the detectors over the same data opens nothing new.
    const count = (await opportunities(brand)).length;
    const pass = api.app.get(DetectorPass);
    expect(await pass.run(org.id, brand, null, 'rerun')).toMatchObject({ opened: [] });
    expect(await opportunities(brand)).toHaveLength(count);

    // The team fixes it.
    for (const [toStatus, extra] of [['assigned', { owner: 'ana@example.com' }], ['in_progress', {}], ['fix_deployed', {}], ['verifying', {}]] as const) {
      const r = await api.request({ method: 'POST', url: `/api/v1/opportunities/${opp.id}/transition`, key: org.key, body: { toStatus, reason: `to ${toStatus}`, ...extra } });
      expect(r.status).toBe(200);
    }

    // The engines answer with Acme back on top; one answer is not enough data: it waits, and the KPIs say so.
    fakes.openai.setAnswer(defaultAnswer);
    await runAudit(brand, ['best crm tool'], ['chatgpt']);
    expect(await get(opp.id)).toMatchObject({ status: 'verifying', verification: { status: 'pending' } });
    const kpis = await api.request({ url: `/api/v1/opportunities/_summary/kpis?brandId=${brand}`, key: org.key });
    expect(kpis.body.data).toMatchObject({ awaitingVerification: 1, byStatus: { verifying: 1 } });

    await runAudit(brand, ['best crm tool'], ['chatgpt']);
    await runAudit(brand, ['best crm tool'], ['chatgpt']);
    const resolved = await get(opp.id);
    expect(resolved).toMatchObject({ status: 'resolved', verification: { status: 'passed', details: { metric: 'top3Rate', afterFix: { k: 3, n: 3 } } } });
    const history = (await api.request({ url: `/api/v1/opportunities/${opp.id}/events`, key: org.key })).body.data as { type: string; actor: string; data: Record<string, unknown> }[];
    const last = history[history.length - 1];
    expect(last).toMatchObject({ type: 'opportunity.transitioned', actor: 'system', data: { from: 'verifying', to: 'resolved', reason: expect.stringMatching(/^recovered: top3Rate 0% \(n 3\) at detection, 100% \(n 3\) after the fix, p /) } });

    // The brand's channel rows (an import): the outcome window is eight seconds, so its channel windows are one day each:
    // the day before detection and the day of resolution. A row two days before detection is outside; another brand's row is not Acme's.
    const day = (iso: string, offset: number) => new Date(Date.parse(iso.slice(0, 10)) + offset * 86_400_000).toISOString().slice(0, 10);
    const { detectedAt, resolvedAt } = resolved as { detectedAt: string; resolvedAt: string };
    const brandClient = Number((await api.dataSource.query('SELECT client_id FROM brands WHERE id = $1', [brand]))[0].client_id);
    await api.tenancy.createBrand({ organizationId: org.id, clientId: brandClient, name: 'Acme Labs', domain: 'acmelabs.example' });
    const channel = await api.request({ method: 'POST', url: '/api/v1/channels', key: org.key, body: { clientId: brandClient, kind: 'import', name: 'Uploads', brandId: brand } });
    expect(channel.status).toBe(201);
    const rows = [
      'date,domain,sessions,aiSessions,conversions,revenue',
      `${day(detectedAt, -2)},,900,500,90,9000`,
      `${day(detectedAt, -1)},,100,10,2,100.50`,
      `${day(resolvedAt, 0)},,120,25,5,260`,
      `${day(resolvedAt, 0)},acmelabs.example,50,40,4,400`,
    ];
    const imported = await api.request({ method: 'POST', url: `/api/v1/channels/${channel.body.data.id}/imports`, key: org.key, body: rows.join('\n') + '\n', headers: { 'content-type': 'text/csv' } });
    expect(imported.status).toBe(201);

    // One more answer inside the window after resolution; after the window the outcome is finalised
    // from the answers (rates with n: Acme cited in every answer after, not in the dropped ones before) and the channel rows.
    await runAudit(brand, ['best crm tool'], ['chatgpt']);
    expect((await get(opp.id)).outcome).toBeNull();
    await until(async () => (await get(opp.id)).outcome !== null, 30_000, 'outcome finalised');
    const final = await get(opp.id);
    expect(final.outcome).toMatchObject({
      mentionRateBefore: 1,
      mentionRateAfter: 1,
      citationRateAfter: 1,
      aiTrafficBefore: 10,
      aiTrafficAfter: 25,
      conversions: 3,
      revenue: 159.5,
      measured: {
        mentionRate: { before: { n: expect.any(Number) }, after: { k: 1, n: 1, value: 1 } },
        channels: {
          windows: { before: { from: day(detectedAt, -1), to: day(detectedAt, -1) }, after: { from: day(resolvedAt, 0), to: day(resolvedAt, 0) }, days: 1 },
          source: 'import',
          rows: { before: 1, after: 1 },
          aiSessions: { before: 10, after: 25, change: 15 },
          conversions: { before: 2, after: 5, change: 3 },
          revenue: { before: 100.5, after: 260, change: 159.5 },
        },
      },
    });
    expect(final.outcome.measured.unmeasured).toBeUndefined();
    // The before window (eight seconds up to detection) holds the dropped answers and perhaps the last of the good ones.
    expect(final.outcome.citationRateBefore).toBe(final.outcome.measured.citationRate.before.value);
    expect(final.outcome.citationRateBefore).toBeLessThan(1);
    const summary = await api.request({ url: `/api/v1/outcomes/_summary?brandId=${brand}`, key: org.key });
    expect(summary.status).toBe(200);
    expect(summary.body.data.rows).toEqual([expect.objectContaining({ opportunityId: opp.id, mentionRateBefore: 1, mentionRateAfter: 1, citationRateBefore: final.outcome.citationRateBefore, citationRateAfter: 1, revenue: 159.5, conversions: 3, aiTrafficBefore: 10, aiTrafficAfter: 25 })]);
    expect(summary.body.data.totals).toMatchObject({ resolved: 1, withOutcome: 1, mentionRateBeforeAvg: 1, citationRateAfterAvg: 1, revenue: 159.5, conversions: 3, aiTrafficBefore: 10 });

    const idOf = (d: (typeof receiver.received)[number]) => (d.body.data.opportunity as { id: number } | undefined)?.id ?? (d.body.data as { id: number }).id;
    const ours = () => receiver.received.filter((r) => r.path === '/loop' && idOf(r) === opp.id);
    await until(() => ours().length >= 4, 15_000, 'four deliveries');
    // Deliveries run in parallel, so arrival order is not the events' order: the stream revision is.
    const versionOf = (d: (typeof receiver.received)[number]) => (d.body.data.opportunity as { version: number } | undefined)?.version ?? (d.body.data as { version: number }).version;
    const deliveries = [...ours()].sort((a, b) => versionOf(a) - versionOf(b));
    expect(deliveries.map((d) => [d.type, d.verified, idOf(d)])).toEqual([
      ['opportunity.opened', true, opp.id],
      ['verification.completed', true, opp.id],
      ['opportunity.resolved', true, opp.id],
      ['outcome.finalized', true, opp.id],
    ]);

    // The problem comes back after resolution: a new opportunity linked to the resolved one.
    fakes.openai.setAnswer(acmeFourth);
    for (let i = 0; i < 3; i++) await runAudit(brand, ['best crm tool'], ['chatgpt']);
    const again = (await opportunities(brand)).filter((o) => o.type === 'dropped_from_top3' && o.id !== opp.id);
    expect(again).toEqual([expect.objectContaining({ status: 'detected', recurrenceOf: opp.id, fingerprint: opp.fingerprint })]);
  }, 240_000);

  it('a fix that does not hold: enough answers after it without a recovery record a failed verification and regress it', async () => {
    for (let i = 0; i < 3; i++) await runAudit(brand, ['best crm tool'], ['perplexity']);
    fakes.perplexity.setAnswer(acmeFourth);
    for (let i = 0; i < 3; i++) await runAudit(brand, ['best crm tool'], ['perplexity']);
    const [opp] = (await opportunities(brand)).filter((o) => o.type === 'dropped_from_top3');
    expect(opp).toBeDefined();
    for (const [toStatus, extra] of [['assigned', { owner: 'bo@example.com' }], ['in_progress', {}], ['fix_deployed', {}], ['verifying', {}]] as const) {
      expect((await api.request({ method: 'POST', url: `/api/v1/opportunities/${opp.id}/transition`, key: org.key, body: { toStatus, ...extra } })).status).toBe(200);
    }
    for (let i = 0; i < 2; i++) await runAudit(brand, ['best crm tool'], ['perplexity']);
    expect(await get(opp.id)).toMatchObject({ status: 'verifying' });
    await runAudit(brand, ['best crm tool'], ['perplexity']);
    expect(await get(opp.id)).toMatchObject({ status: 'regressed', verification: { status: 'failed', details: { afterFix: { k: 0, n: 3 } } } });
    const history = (await api.request({ url: `/api/v1/opportunities/${opp.id}/events`, key: org.key })).body.data as { type: string; actor: string; data: Record<string, unknown> }[];
    expect(history.slice(-2).map((e) => [e.type, e.actor])).toEqual([
      ['opportunity.verification_recorded', 'system'],
      ['opportunity.transitioned', 'system'],
    ]);
    expect(history[history.length - 1].data).toMatchObject({ from: 'verifying', to: 'regressed', reason: expect.stringMatching(/^no significant recovery: top3Rate 0% \(n 3\)/) });
  }, 180_000);

  it('a provider down for a run does not open a drop caused by the gap', async () => {
    const other = brand;
    for (let i = 0; i < 3; i++) await runAudit(other, ['gap check'], ['chatgpt', 'claude']);
    // claude fails every attempt for three runs (partial runs): its answers are failures, not answers without Acme.
    for (let i = 0; i < 3; i++) {
      fakes.anthropic.script({ status: 503 }, { status: 503 });
      await runAudit(other, ['gap check'], ['chatgpt', 'claude']);
    }
    const runs = (await api.request({ url: `/api/v1/analysis-runs?brandId=${other}&limit=10`, key: org.key })).body.data as { status: string }[];
    expect(runs.filter((r) => r.status === 'partial')).toHaveLength(3);
    expect(await opportunities(other)).toEqual([]);
  });

  it('crawl_block: the bot detectors open one opportunity per agent blocked on the brand\'s site (daily rollups); a second pass opens nothing new', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const insert = (bot: string, category: string, verification: string, visits: number, errors: number) =>
      api.dataSource.query(
        `INSERT INTO agent_bot_daily (organization_id, brand_id, host, day, bot_name, category, verification, visits, error_visits, disallowed_visits, last_seen) VALUES ($1, $2, 'acme.com', $3, $4, $5, $6, $7, $8, 0, now())`,
        [org.id, brand, today, bot, category, verification, visits, errors],
      );
    await insert('GPTBot', 'training', 'verified', 200, 90); // 45 % answered 4xx/5xx: blocked
    await insert('PerplexityBot', 'search', 'verified', 200, 4); // 2 %: fine
    await insert('ClaudeBot', 'training', 'spoofed', 200, 200); // impostors refused: not the engine blocked
    const pass = api.app.get(CrawlBlockPass);
    await pass.run('crawl-block-test-1');
    const first = (await opportunities(brand)).filter((o) => o.type === 'crawl_block');
    expect(first).toEqual([expect.objectContaining({ fingerprint: `crawl_block:${brand}:GPTBot`, source: 'detector:crawl_block', status: 'detected', evidence: expect.objectContaining({ errorShare: expect.objectContaining({ k: 90, n: 200, value: 0.45 }) }) })]);
    const again = await pass.run('crawl-block-test-2');
    expect(again.opened).toEqual([]);
    expect((await opportunities(brand)).filter((o) => o.type === 'crawl_block')).toHaveLength(1);
  });

  it('a detector crash leaves no half-open opportunity; the pass given again opens each problem once', async () => {
    const third = brand;
    for (let i = 0; i < 3; i++) await runAudit(third, ['crash check'], ['gemini']);
    fakes.gemini.setAnswer(acmeFourth);
    // The detectors see the drop on the third run; here they crash first (a detector that throws after dropped_from_top3 reported).
    const crashing: DetectorDefinition = { type: 'sov_drop', detect: () => { throw new Error('detector crashed'); }, verify: () => ({ status: 'waiting', reason: '', details: {} }) }; // prettier-ignore
    const app = api.app;
    const pass = new DetectorPass(
      app.get(AnswerFactsReads),
      app.get(ChannelOutcomeReads),
      app.get(DetectorThresholdsRepository),
      app.get(CommandBus),
      app.get(OpportunityRepository),
      app.get(TenancyRepository),
      app.get(DataSource),
      app.get<DetectorsConfig>(DETECTORS_CONFIG.token),
      [droppedFromTop3, crashing],
      app.get(VerifyingOpportunities),
    );
    // Keep the worker's own detectors from seeing these runs first: the thresholds need more answers than exist until we lower them.
    const thresholds = app.get(DetectorThresholdsRepository);
    const before = (await thresholds.of(org.id)).thresholds;
    await thresholds.set(org.id, { ...before, minSamples: 50 });
    try {
      for (let i = 0; i < 3; i++) await runAudit(third, ['crash check'], ['gemini']);
    } finally {
      await thresholds.set(org.id, before);
    }
    await expect(pass.run(org.id, third, null, 'crash')).rejects.toThrow('detector crashed');
    expect(await opportunities(third)).toEqual([]);
    const claims: { n: number }[] = await app.get(DataSource).query(`SELECT count(*)::int AS n FROM events WHERE type = 'opportunity.fingerprint_claimed' AND data->>'fingerprint' LIKE $1`, [`%:${third}:%`]);
    expect(claims[0].n).toBe(0);

    const healthy = app.get(DetectorPass);
    const first = await healthy.run(org.id, third, null, 'after-crash');
    // Acme out of the top 3, and no longer cited (the drop's answers cite only globex.com).
    expect(first.opened).toHaveLength(2);
    expect(await healthy.run(org.id, third, null, 'again')).toMatchObject({ opened: [] });
    const found = await opportunities(third);
    expect(found.map((o) => [o.type, o.status]).sort()).toEqual([
      ['dropped_from_top3', 'detected'],
      ['missing_citation', 'detected'],
    ]);
  });
});
