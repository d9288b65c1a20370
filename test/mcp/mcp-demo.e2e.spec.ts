import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { addDays, twoProportionTest, utcDay } from '@libs/metrics';
import { startDemoServer, type DemoServer } from '../support/dashboard-demo';
import { until } from '../support/until';

/**
 * Every MCP tool on the seeded demo (what `npm start` gives a newcomer), through the official MCP
 * client SDK over HTTP, each figure compared with the REST API's answer to the same question.
 */
let demo: DemoServer;
let client: Client;
let key: string;
let brandId: number;

beforeAll(async () => {
  demo = await startDemoServer({ opportunities: 20 });
  key = demo.seeded.keys[0].key;
  brandId = demo.seeded.brands[0].id;
  client = new Client({ name: 'e2e-demo', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${demo.base}/mcp`), { requestInit: { headers: { 'x-api-key': key } } }));
}, 600_000);
afterAll(async () => {
  await client?.close().catch(() => undefined);
  await demo?.close();
});

type Figure = { value: number | null; n: number; low: number | null; high: number | null };
async function tool<T = any>(name: string, args: Record<string, unknown>): Promise<T> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text?: string }[]; structuredContent?: T };
  if (r.isError) throw new Error(`${name}: ${r.content.map((c) => c.text).join(' ')}`);
  expect(r.content[0].text!.length).toBeLessThan(1000);
  return r.structuredContent as T;
}
async function rest<T = any>(path: string): Promise<T> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const r = await demo.api<T>(path, key);
  expect([path, r.status]).toEqual([path, 200]);
  return r.body;
}

/** The brand's share of voice over the period from the REST page by provider and query, summed. */
async function restShareOfVoice(period: string): Promise<{ k: number; n: number }> {
  let k = 0;
  let n = 0;
  for (let offset = 0; ; offset += 200) {
    const page = await rest(`/visibility/sov?brandId=${brandId}&${period}&limit=200&offset=${offset}`);
    for (const g of page.data as { brand: { id: string }; entries: { entity: { id: string }; mentions: number }[] }[]) {
      for (const e of g.entries) {
        n += e.mentions;
        if (e.entity.id === g.brand.id) k += e.mentions;
      }
    }
    if (!page.meta.hasMore) return { k, n };
  }
}

describe('MCP tools on the demo, figure by figure against the REST API', () => {
  const end = utcDay(Date.now());
  const start = addDays(end, -29);
  const period = `startDate=${start}&endDate=${end}`;

  it('lists the brands the API lists, and serves them as resources', async () => {
    const brands = await tool('list_brands', {});
    const listed = (await rest('/brands')).data as { id: number; name: string }[];
    expect(brands.brands.map((b: { id: number; name: string }) => [b.id, b.name])).toEqual(listed.map((b) => [b.id, b.name]));
    const resources = await client.listResources();
    expect(resources.resources.map((r) => r.uri).sort()).toEqual(listed.map((b) => `brand://${b.id}`).sort());
    const prompts = await client.listPrompts();
    expect(prompts.prompts.map((p) => p.name).sort()).toEqual(['triage_opportunities', 'weekly_brand_report']);
    const report = await client.getPrompt({ name: 'weekly_brand_report', arguments: { brandId: String(brandId) } });
    expect(JSON.stringify(report.messages)).toContain('compare_periods');
  });

  it('visibility_summary: each figure is the REST figure, with its n and interval', async () => {
    const f = await tool('visibility_summary', { brandId, startDate: start, endDate: end });
    const aeo = (await rest(`/aeo/metrics?brandId=${brandId}&${period}`)).data;
    const geo = (await rest(`/geo/metrics?brandId=${brandId}&${period}`)).data;
    const sentiment = (await rest(`/sentiment/summary?brandId=${brandId}&${period}`)).data;
    const index = (await rest(`/brand-index/latest?brandId=${brandId}`)).data;
    expect(f.mentionRate).toEqual(aeo.overall.mentionRate);
    expect(f.mentionRate.n).toBeGreaterThan(100);
    expect(f.citationRate).toEqual(geo.overall.citationRate);
    expect(f.sentiment.positiveRate).toEqual(sentiment.positiveRate);
    expect(f.sentiment.negativeRate).toEqual(sentiment.negativeRate);
    expect(f.sentiment.net).toMatchObject({ value: sentiment.netSentiment.value, n: sentiment.netSentiment.n });
    expect(f.brandIndex.value).toBe(index.value);
    const sov = await restShareOfVoice(period);
    expect(sov.n).toBeGreaterThan(0);
    expect(f.shareOfVoice.n).toBe(sov.n);
    expect(f.shareOfVoice.value).toBeCloseTo(sov.k / sov.n, 4);
    for (const x of [f.mentionRate, f.shareOfVoice, f.citationRate] as Figure[]) expect(x.low! <= x.value! && x.value! <= x.high!).toBe(true);
    const chatgpt = await tool('visibility_summary', { brandId, startDate: start, endDate: end, provider: 'chatgpt' });
    expect(chatgpt.mentionRate).toEqual((await rest(`/aeo/metrics?brandId=${brandId}&${period}&provider=chatgpt`)).data.overall.mentionRate);
    expect(chatgpt.mentionRate.n).toBeLessThan(f.mentionRate.n);
  });

  it('visibility_summary with a market: the REST figures of the same market, normalised alike (the demo asks without one: none in DE)', async () => {
    const de = await tool('visibility_summary', { brandId, startDate: start, endDate: end, country: 'de', language: 'DE' });
    const aeo = (await rest(`/aeo/metrics?brandId=${brandId}&${period}&country=DE&language=de`)).data;
    expect(de.mentionRate).toEqual(aeo.overall.mentionRate);
    expect(de.mentionRate.n).toBe(0);
    expect(de.citationRate).toEqual((await rest(`/geo/metrics?brandId=${brandId}&${period}&country=DE&language=de`)).data.overall.citationRate);
    const all = await tool('visibility_summary', { brandId, startDate: start, endDate: end });
    expect(all.mentionRate.n).toBeGreaterThan(0);
  });

  it('compare_periods: the DESIGN §14 test on the REST counts of both periods', async () => {
    const afterStart = addDays(end, -6);
    const beforeEnd = addDays(afterStart, -1);
    const beforeStart = addDays(beforeEnd, -6);
    const c = await tool('compare_periods', { brandId, startDate: afterStart, endDate: end });
    expect(c.before).toEqual({ startDate: beforeStart, endDate: beforeEnd });
    const before = (await rest(`/aeo/metrics?brandId=${brandId}&startDate=${beforeStart}&endDate=${beforeEnd}`)).data.overall.mentionRate as Figure;
    const after = (await rest(`/aeo/metrics?brandId=${brandId}&startDate=${afterStart}&endDate=${end}`)).data.overall.mentionRate as Figure;
    const mention = c.changes.find((x: { figure: string }) => x.figure === 'mentionRate');
    expect(mention.before).toEqual(before);
    expect(mention.after).toEqual(after);
    const expected = twoProportionTest({ k: Math.round(before.value! * before.n), n: before.n }, { k: Math.round(after.value! * after.n), n: after.n });
    expect(mention.pValue).toBeCloseTo(expected.pValue!, 10);
    expect(mention.verdict).toBe(expected.pValue! >= 0.05 ? 'not significant' : expected.difference! > 0 ? 'significant increase' : 'significant decrease');
    for (const x of c.changes) expect(['significant increase', 'significant decrease', 'not significant', 'not tested']).toContain(x.verdict);
    expect(c.changes.find((x: { figure: string }) => x.figure === 'netSentiment')).toMatchObject({ test: 'none', verdict: 'not tested' });
  });

  it('top_citation_sources and citation_gaps: the REST rankings', async () => {
    const top = await tool('top_citation_sources', { brandId, range: 30, limit: 20 });
    const restTop = (await rest(`/citation-sources/top?brandId=${brandId}&range=30&limit=20`)).data;
    expect(top.domains.length).toBeGreaterThan(0);
    expect(top.domains.map((d: { domain: string; consensusScore: number; citations: number }) => [d.domain, d.consensusScore, d.citations])).toEqual(
      restTop.domains.map((d: { domain: string; consensusScore: number; citations: number }) => [d.domain, d.consensusScore, d.citations]),
    );
    expect(top.totalDomains).toBe(restTop.totalDomains);
    const gaps = await tool('citation_gaps', { brandId, range: 30, limit: 20, minScore: 0 });
    const restGaps = (await rest(`/citation-sources/absences?brandId=${brandId}&range=30&limit=20&minScore=0`)).data;
    expect(gaps.domains.map((d: { domain: string; absenceScore: number }) => [d.domain, d.absenceScore])).toEqual(restGaps.domains.map((d: { domain: string; absenceScore: number }) => [d.domain, d.absenceScore]));
  });

  it('bot_activity: the REST bots and pages', async () => {
    const b = await tool('bot_activity', { days: 30, pages: 10 });
    const bots = (await rest('/agent-analytics/bots?days=30')).data;
    const pages = (await rest('/agent-analytics/pages?days=30&limit=10')).data;
    expect(b.bots.length).toBeGreaterThan(0);
    expect(b.bots.map((x: { botName: string; verifiedVisits: number; spoofedVisits: number; visits: number }) => [x.botName, x.visits, x.verifiedVisits, x.spoofedVisits])).toEqual(
      bots.map((x: { botName: string; verifiedVisits: number; spoofedVisits: number; visits: number }) => [x.botName, x.visits, x.verifiedVisits, x.spoofedVisits]),
    );
    expect(b.topPages.map((p: { host: string; path: string; visits: number }) => [p.host, p.path, p.visits])).toEqual(pages.map((p: { host: string; path: string; visits: number }) => [p.host, p.path, p.visits]));
  });

  it('search_answers: the REST answers containing the text, as bounded excerpts with spans', async () => {
    const name = demo.seeded.brands[0].name;
    const s = await tool('search_answers', { brandId, text: name, limit: 10 });
    const listed = await rest(`/analysis-results?brandId=${brandId}&text=${encodeURIComponent(name)}&limit=10`);
    expect(s.total).toBe(listed.meta.total);
    expect(s.total).toBeGreaterThan(0);
    expect(s.answers.map((a: { resultId: string }) => a.resultId)).toEqual(listed.data.map((r: { id: string }) => r.id));
    for (const a of s.answers) {
      expect(a.excerpt.length).toBeLessThanOrEqual(402);
      const match = a.spans.find((x: { kind: string }) => x.kind === 'match');
      expect(a.excerpt.slice(match.start, match.end).toLowerCase()).toBe(name.toLowerCase());
    }
  });

  it('list_opportunities and explain_opportunity: the REST records, history and outcome', async () => {
    const l = await tool('list_opportunities', { brandId, includeTerminal: true, limit: 50 });
    const listed = await rest(`/opportunities?brandId=${brandId}&includeTerminal=true&limit=50&offset=0`);
    expect(l.total).toBe(listed.meta.total);
    expect(l.opportunities.map((o: { id: number; version: number; status: string }) => [o.id, o.version, o.status])).toEqual(listed.data.map((o: { id: number; version: number; status: string }) => [o.id, o.version, o.status]));
    const resolved = await rest('/opportunities?status=resolved&limit=200');
    const withOutcome = resolved.data.find((o: { outcome: unknown }) => o.outcome !== null);
    expect(withOutcome).toBeDefined();
    const e = await tool('explain_opportunity', { opportunityId: withOutcome.id });
    expect(e.opportunity.outcome).toEqual(withOutcome.outcome);
    expect(e.opportunity.verification).toEqual(withOutcome.verification);
    expect(e.opportunity.allowedMoves).toEqual([]);
    const events = (await rest(`/opportunities/${withOutcome.id}/events`)).data;
    expect(e.history.map((x: { position: number; type: string; recordedAt: string }) => [x.position, x.type, x.recordedAt])).toEqual(events.map((x: { position: number; type: string; recordedAt: string }) => [x.position, x.type, x.recordedAt]));
  });

  it('what_changed: the events the event store recorded in the window, and the changes feed', async () => {
    const from = `${addDays(end, -30)}T00:00:00.000Z`;
    const to = new Date(Date.now() + 1000).toISOString();
    const w = await tool('what_changed', { from, to, brandId });
    const listed = (await rest(`/opportunities?brandId=${brandId}&includeTerminal=true&limit=200`)).data as { id: number; detectedAt: string }[];
    const detectedInWindow = listed.filter((o) => o.detectedAt >= from && o.detectedAt < to).map((o) => o.id).sort((a, b) => a - b);
    expect(w.detections.map((d: { opportunityId: number }) => d.opportunityId).sort((a: number, b: number) => a - b)).toEqual(detectedInWindow);
    for (const e of w.lifecycle) expect(e.occurredAt >= from && e.occurredAt < to).toBe(true);
    // Each lifecycle event is one of its opportunity's events over REST, with the time it carries.
    expect(w.lifecycle.length).toBeGreaterThan(0);
    const sample = w.lifecycle[0] as { opportunityId: number; position: number; type: string; data: Record<string, unknown> };
    const events = (await rest(`/opportunities/${sample.opportunityId}/events`)).data as { position: number; type: string; data: Record<string, unknown> }[];
    expect(events.find((e) => e.position === sample.position)).toMatchObject({ type: sample.type });
    expect(w.answerChanges.changes.length).toBeGreaterThan(0);
    const feed = await rest(`/changes?brandId=${brandId}&startDate=${addDays(end, -30)}&endDate=${end}&limit=200&order=asc`);
    expect(w.answerChanges.changes.map((c: { id: string }) => c.id)).toEqual(feed.data.map((c: { id: string }) => c.id));
  });

  it('start_audit: a run the REST API then shows', async () => {
    const a = await tool('start_audit', { brandId, queries: ['best CRM for a bakery'], providers: ['chatgpt'] });
    expect(a).toMatchObject({ brandId, queries: ['best CRM for a bakery'], providers: ['chatgpt'], status: 'queued' });
    // The run's read model is projected from its event: wait for it as a REST client would.
    await until(async () => (await demo.api(`/analysis-runs/${a.analysisRunId}`, key)).status === 200, 10_000, 'the run in the read model');
    const run = (await rest(`/analysis-runs/${a.analysisRunId}`)).data;
    expect(run).toMatchObject({ id: a.analysisRunId, brandId, queries: ['best CRM for a bakery'] });
  });
});
