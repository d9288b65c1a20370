import { WorkerPartModule } from '../../apps/worker/src/worker.module';
import { fingerprintStream, OpportunityRepository, TYPES, SEVERITIES, type Status } from '@libs/opportunities';
import { ProjectionRebuilder } from '@libs/projection-engine';
import { EVENT_STORE, ExpectedRevision, type EventStore } from '@libs/event-store';
import { opportunitiesProjector, opportunityCountsProjector, opportunityOutcomesProjector } from '@projections';
import { startTestApi, type TestApi } from '../support/test-api';

/** The opportunity queue over HTTP, with the projectors running in the same process. */
let api: TestApi;
let org: { id: number; key: string; keyId: number };
let other: { id: number; key: string; keyId: number };
let brand: number;
let brand2: number;

beforeAll(async () => {
  api = await startTestApi({}, [WorkerPartModule.forRoot()]);
  org = await api.organization();
  other = await api.organization();
  brand = (await api.tenancy.createBrand({ organizationId: org.id, name: 'Acme', domain: 'acme.com' })).id;
  brand2 = (await api.tenancy.createBrand({ organizationId: org.id, name: 'Acme Two', domain: 'acme2.com' })).id;
});
afterAll(async () => {
  await api?.close();
});

const create = (body: Record<string, unknown>, key = org.key) => api.request({ method: 'POST', url: '/api/v1/opportunities', key, body });
const transition = (id: number, body: Record<string, unknown>, key = org.key) => api.request({ method: 'POST', url: `/api/v1/opportunities/${id}/transition`, key, body });
const list = (query: string, key = org.key) => api.request({ url: `/api/v1/opportunities${query}`, key });

async function move(id: number, path: Status[]): Promise<void> {
  for (const toStatus of path) {
    const r = await transition(id, { toStatus, owner: toStatus === 'assigned' ? 'ana' : undefined, reason: `to ${toStatus}` });
    expect(r.status).toBe(200);
  }
}

describe('opportunities', () => {
  const ids: Record<string, number> = {};

  it('creates an opportunity (201) and returns the open one for the same fingerprint (200)', async () => {
    const first = await create({ brandId: brand, type: 'sov_drop', severity: 'high', title: 'SoV fell on ChatGPT', evidence: { drop: 0.2 } });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ brandId: brand, organizationId: org.id, type: 'sov_drop', severity: 'high', status: 'detected', owner: null, version: 0, recurrenceOf: null });
    expect(first.body.data.sla).toMatchObject({ policy: 'default', breached: false });
    const again = await create({ brandId: brand, type: 'sov_drop', severity: 'high', title: '  sov fell on chatgpt!' });
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
    ids.sov = first.body.data.id;
    // Read-your-writes: the next read sees it.
    expect((await api.request({ url: `/api/v1/opportunities/${ids.sov}`, key: org.key })).body.data.status).toBe('detected');
  });

  it('opens one opportunity for 20 concurrent reports of one problem: one 201, nineteen 200 with its id', async () => {
    const title = `Concurrent report ${Date.now()}`;
    const results = await Promise.all(Array.from({ length: 20 }, () => create({ brandId: brand, type: 'seo_task', severity: 'low', title })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 200)).toHaveLength(19);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    await api.projected(['opportunities']);
    expect((await list(`?brandId=${brand}&limit=200`)).body.data.filter((o: { title: string }) => o.title === title)).toHaveLength(1);
  });

  it('opens the opportunity of a claim whose report stopped before writing it (a crash between the two appends)', async () => {
    const store = api.app.get<EventStore>(EVENT_STORE);
    const id = await api.app.get(OpportunityRepository).nextId();
    const fingerprint = `crashed-${id}`;
    const detection = { id, organizationId: org.id, brandId: brand, type: 'crawl_block', severity: 'high', title: 'Reported before the crash', description: null, evidence: {}, source: 'detector:crawl', fingerprint, recurrenceOf: null, detectedAt: new Date(Date.now() - 60_000).toISOString() };
    await store.appendToStream(
      fingerprintStream(org.id, null, fingerprint),
      [{ type: 'opportunity.fingerprint_claimed', data: { opportunityId: id, fingerprint, detection }, metadata: { organizationId: org.id, actor: 'detector', correlationId: 'crashed' } }],
      ExpectedRevision.noStream,
    );
    const again = await create({ brandId: brand, type: 'crawl_block', severity: 'high', title: 'Reported again after the crash', fingerprint });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ id, title: 'Reported before the crash', source: 'detector:crawl', detectedAt: detection.detectedAt });
    const history = await api.request({ url: `/api/v1/opportunities/${id}/events`, key: org.key });
    expect(history.body.data).toHaveLength(1);
    expect(history.body.data[0]).toMatchObject({ type: 'opportunity.detected', actor: 'detector' });
  });

  it('refuses a brand of another organisation (404) and bad bodies (400)', async () => {
    expect((await create({ brandId: brand, type: 'sov_drop', severity: 'high', title: 'x' }, other.key)).status).toBe(404);
    const bad = await create({ brandId: 'x', type: 'nope', severity: 'urgent', title: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields.map((f: { field: string }) => f.field).sort()).toEqual(['brandId', 'severity', 'title', 'type']);
  });

  it('moves through the lifecycle; the effect is visible on the next read', async () => {
    await move(ids.sov, ['assigned', 'in_progress']);
    const read = await api.request({ url: `/api/v1/opportunities/${ids.sov}`, key: org.key });
    expect(read.body.data).toMatchObject({ status: 'in_progress', owner: 'ana', version: 2 });
    const listed = await list('?status=in_progress');
    expect(listed.body.data.map((o: { id: number }) => o.id)).toContain(ids.sov);
  });

  it('answers 400 INVALID_TRANSITION with from, to and allowed, and leaves the store untouched', async () => {
    const r = await transition(ids.sov, { toStatus: 'resolved' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_TRANSITION', details: { from: 'in_progress', to: 'resolved', allowed: ['fix_deployed', 'assigned', 'dismissed'] } });
    const same = await transition(ids.sov, { toStatus: 'in_progress' });
    expect(same.body.error.code).toBe('INVALID_TRANSITION');
    const history = await api.request({ url: `/api/v1/opportunities/${ids.sov}/events`, key: org.key });
    expect(history.body.data.map((e: { type: string }) => e.type)).toEqual(['opportunity.detected', 'opportunity.transitioned', 'opportunity.transitioned']);
    expect(history.body.data[1]).toMatchObject({ actor: `key:${org.keyId}`, reason: 'to assigned', data: { from: 'detected', to: 'assigned', owner: 'ana' } });
  });

  it('validates transition bodies: missing or unknown toStatus, long reason, unknown fields', async () => {
    for (const body of [{}, { toStatus: 'done' }, { toStatus: 'triaged', reason: 'x'.repeat(2001) }, { toStatus: 'triaged', extra: 1 }]) {
      const r = await transition(ids.sov, body);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('VALIDATION_ERROR');
    }
    const noOwner = await create({ brandId: brand, type: 'schema_gap', severity: 'low', title: 'No FAQ schema' });
    const r = await transition(noOwner.body.data.id, { toStatus: 'assigned' });
    expect(r.status).toBe(400);
    expect(r.body.error.details.fields[0].field).toBe('owner');
    expect((await api.request({ url: `/api/v1/opportunities/${noOwner.body.data.id}/events`, key: org.key })).body.data).toHaveLength(1);
  });

  it('answers 404 for missing ids and for another organisation (GET and transition), 400 for non-integer ids', async () => {
    expect((await api.request({ url: '/api/v1/opportunities/999999', key: org.key })).status).toBe(404);
    expect((await transition(999999, { toStatus: 'triaged' })).status).toBe(404);
    expect((await api.request({ url: `/api/v1/opportunities/${ids.sov}`, key: other.key })).status).toBe(404);
    expect((await api.request({ url: `/api/v1/opportunities/${ids.sov}/events`, key: other.key })).status).toBe(404);
    const foreign = await transition(ids.sov, { toStatus: 'dismissed' }, other.key);
    expect(foreign.status).toBe(404);
    expect((await api.request({ url: `/api/v1/opportunities/${ids.sov}`, key: org.key })).body.data.status).toBe('in_progress');
    for (const bad of ['abc', '1.5', '0', '-2']) expect((await api.request({ url: `/api/v1/opportunities/${bad}`, key: org.key })).status).toBe(400);
  });

  it('refuses a move decided on an old version (expectedVersion) with 409, and applies one on the current version', async () => {
    const o = await create({ brandId: brand, type: 'competitor_gap', severity: 'low', title: 'Stale page' });
    const id = o.body.data.id;
    const seen = o.body.data.version;
    expect((await transition(id, { toStatus: 'triaged', expectedVersion: seen })).status).toBe(200);
    const stale = await transition(id, { toStatus: 'assigned', owner: 'ana', expectedVersion: seen });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: 'CONFLICT', details: { expectedVersion: seen, version: seen + 1, status: 'triaged' } });
    expect((await api.request({ url: `/api/v1/opportunities/${id}`, key: org.key })).body.data.status).toBe('triaged');
    expect((await transition(id, { toStatus: 'assigned', owner: 'ana', expectedVersion: seen + 1 })).status).toBe(200);
    for (const expectedVersion of [-1, 1.5, '3', null]) {
      const bad = await transition(id, { toStatus: 'in_progress', expectedVersion });
      expect(bad.status).toBe(400);
      expect(bad.body.error.details.fields[0].field).toBe('expectedVersion');
    }
  });

  it('lets exactly one of 20 concurrent transitions detected → triaged through', async () => {
    const o = await create({ brandId: brand, type: 'competitor_gap', severity: 'medium', title: 'Competitor cited on pricing' });
    const results = await Promise.all(Array.from({ length: 20 }, () => transition(o.body.data.id, { toStatus: 'triaged' })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400 && r.body.error.code === 'INVALID_TRANSITION')).toHaveLength(19);
    const history = await api.request({ url: `/api/v1/opportunities/${o.body.data.id}/events`, key: org.key });
    expect(history.body.data.filter((e: { type: string }) => e.type === 'opportunity.transitioned')).toHaveLength(1);
  });

  it('filters by brand, type, status and severity (comma lists, combined), with includeTerminal and sorting', async () => {
    const made: { id: number; type: string; severity: string; brandId: number }[] = [];
    for (let i = 0; i < 24; i++) {
      const type = TYPES[i % TYPES.length];
      const severity = SEVERITIES[i % SEVERITIES.length];
      const brandId = i % 3 === 0 ? brand2 : brand;
      const r = await create({ brandId, type, severity, title: `Finding ${i}` });
      made.push({ id: r.body.data.id, type, severity, brandId });
    }
    await move(made[0].id, ['dismissed']);
    await move(made[1].id, ['assigned', 'in_progress', 'fix_deployed', 'verifying', 'resolved']);
    const all = await list('?limit=200');
    expect(all.body.data.every((o: { status: string }) => !['resolved', 'dismissed'].includes(o.status))).toBe(true);
    const withTerminal = await list('?limit=200&includeTerminal=true');
    expect(withTerminal.body.meta.total).toBe(all.body.meta.total + 2);
    const b2 = await list(`?brandId=${brand2}&includeTerminal=true&limit=200`);
    expect(b2.body.data.every((o: { brandId: number }) => o.brandId === brand2)).toBe(true);
    expect(b2.body.meta.total).toBe(made.filter((m) => m.brandId === brand2).length);
    const combo = await list(`?type=sov_drop,schema_gap&severity=low,high&status=detected&brandId=${brand}`);
    for (const o of combo.body.data) {
      expect(['sov_drop', 'schema_gap']).toContain(o.type);
      expect(['low', 'high']).toContain(o.severity);
      expect(o).toMatchObject({ status: 'detected', brandId: brand });
    }
    const resolved = await list('?status=resolved');
    expect(resolved.body.data.map((o: { id: number }) => o.id)).toEqual([made[1].id]);
    const bySeverity = await list('?sort=severity&order=asc&limit=200');
    const ranks = bySeverity.body.data.map((o: { severity: string }) => SEVERITIES.indexOf(o.severity as never));
    expect(ranks).toEqual([...ranks].sort((a: number, b: number) => a - b));
    const paged = await list('?limit=5&offset=5&sort=id&order=asc');
    expect(paged.body.meta).toMatchObject({ limit: 5, offset: 5, hasMore: true });
    expect(paged.body.data[0].id).toBeLessThan(paged.body.data[4].id);
    // Past the end: an empty page that still tells the total; the page's records are the single reads'.
    const beyond = await list('?offset=100000');
    expect(beyond.status).toBe(200);
    expect(beyond.headers['content-type']).toMatch(/^application\/json/);
    expect(beyond.body).toEqual({ data: [], meta: { total: all.body.meta.total, limit: 50, offset: 100000, hasMore: false } });
    const one = await api.request({ url: `/api/v1/opportunities/${paged.body.data[0].id}`, key: org.key });
    expect(one.body.data).toEqual(paged.body.data[0]);
  });

  it('answers 400 for unknown enum values, bad ranges and unknown sort fields', async () => {
    for (const q of ['?status=open', '?type=seo', '?severity=urgent', '?limit=0', '?limit=201', '?offset=-1', '?limit=abc', '?includeTerminal=maybe', '?brandId=x', '?sort=title', '?order=up']) {
      const r = await list(q);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('VALIDATION_ERROR');
    }
    expect((await list('?sort=title')).body.error.details.fields[0].message).toMatch(/sort must be one of: detectedAt/);
  });

  it('KPI counts equal the list totals', async () => {
    const kpis = await api.request({ url: '/api/v1/opportunities/_summary/kpis', key: org.key });
    expect(kpis.status).toBe(200);
    for (const status of ['detected', 'triaged', 'assigned', 'in_progress', 'resolved', 'dismissed']) {
      expect(kpis.body.data.byStatus[status]).toBe((await list(`?status=${status}`)).body.meta.total);
    }
    for (const severity of SEVERITIES) expect(kpis.body.data.bySeverity[severity]).toBe((await list(`?severity=${severity}`)).body.meta.total);
    expect(kpis.body.data.open).toBe((await list('')).body.meta.total);
    expect(kpis.body.data.slaBreached).toBe(0);
    const forBrand = await api.request({ url: `/api/v1/opportunities/_summary/kpis?brandId=${brand2}`, key: org.key });
    expect(forBrand.body.data.total).toBe((await list(`?brandId=${brand2}&includeTerminal=true`)).body.meta.total);
    expect((await api.request({ url: '/api/v1/opportunities/_summary/kpis', key: other.key })).body.data.total).toBe(0);
  });

  it('counts SLA breaches at the moment of the request', async () => {
    const repo = api.app.get(OpportunityRepository);
    const id = await repo.nextId();
    await repo.execute(
      id,
      () => ({ kind: 'detect', id, organizationId: org.id, brandId: brand, type: 'crawl_block', severity: 'critical', title: 'GPTBot blocked', fingerprint: `old-${id}`, source: 'test', now: new Date(Date.now() - 48 * 3_600_000) }),
      { organizationId: org.id, actor: 'test', correlationId: 'c' },
    );
    await api.projected(['opportunities', 'opportunity_counts']);
    const kpis = await api.request({ url: '/api/v1/opportunities/_summary/kpis', key: org.key });
    expect(kpis.body.data.slaBreached).toBe(1);
    const one = await api.request({ url: `/api/v1/opportunities/${id}`, key: org.key });
    expect(one.body.data.sla).toMatchObject({ breached: true, breachedAt: one.body.data.sla.dueAt });
  });

  it('counts each breach once, due an earlier day, an earlier hour today or earlier this hour, and nothing not yet due or closed', async () => {
    const repo = api.app.get(OpportunityRepository);
    const meta = { organizationId: org.id, actor: 'test', correlationId: 'c' };
    const brandNew = (await api.tenancy.createBrand({ organizationId: org.id, name: 'Breach Brand', domain: 'breach.example' })).id;
    const detectDueIn = async (ms: number) => {
      const id = await repo.nextId();
      // critical: due 24 h after detection
      await repo.execute(id, () => ({ kind: 'detect', id, organizationId: org.id, brandId: brandNew, type: 'crawl_block', severity: 'critical', title: `due ${ms}`, fingerprint: `due-${id}`, source: 'test', now: new Date(Date.now() - 24 * 3_600_000 + ms) }), meta);
      return id;
    };
    // Past due by 30 s, 11 min, 61 min, 25 h and 40 days: wherever now falls, they land in the
    // current ten minutes, earlier ten-minute buckets, hours, days or months, each counted once.
    for (const ms of [-30_000, -11 * 60_000, -61 * 60_000, -25 * 3_600_000, -40 * 86_400_000]) await detectDueIn(ms);
    await detectDueIn(60_000); // not yet due
    const closed = await detectDueIn(-2 * 3_600_000);
    await repo.execute(closed, () => ({ kind: 'transition', toStatus: 'dismissed', reason: 'duplicate', owner: null, now: new Date() }), meta);
    await api.projected(['opportunities', 'opportunity_counts']);
    const kpis = await api.request({ url: `/api/v1/opportunities/_summary/kpis?brandId=${brandNew}`, key: org.key });
    expect(kpis.body.data).toMatchObject({ slaBreached: 5, open: 6, total: 7 });
  });

  it('answers asOf with the earlier state', async () => {
    const o = await create({ brandId: brand, type: 'misinformation', severity: 'critical', title: 'Wrong pricing quoted' });
    await new Promise((r) => setTimeout(r, 30));
    const between = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 30));
    await move(o.body.data.id, ['triaged']);
    const then = await api.request({ url: `/api/v1/opportunities/${o.body.data.id}?asOf=${encodeURIComponent(between)}`, key: org.key });
    expect(then.body.data).toMatchObject({ status: 'detected', version: 0 });
    const now = await api.request({ url: `/api/v1/opportunities/${o.body.data.id}`, key: org.key });
    expect(now.body.data).toMatchObject({ status: 'triaged', version: 1 });
    expect((await api.request({ url: `/api/v1/opportunities/${o.body.data.id}?asOf=2000-01-01`, key: org.key })).status).toBe(404);
    expect((await api.request({ url: `/api/v1/opportunities/${o.body.data.id}?asOf=yesterday`, key: org.key })).status).toBe(400);
  });

  it('summarises outcomes of opportunities resolved in the window', async () => {
    const repo = api.app.get(OpportunityRepository);
    const meta = { organizationId: org.id, actor: 'test', correlationId: 'c' };
    const resolveAt = async (daysAgo: number, revenue: number) => {
      const id = await repo.nextId();
      const at = (h: number) => new Date(Date.now() - daysAgo * 86_400_000 + h * 60_000);
      await repo.execute(id, () => ({ kind: 'detect', id, organizationId: org.id, brandId: brand, type: 'missing_citation', severity: 'medium', title: `Missing ${id}`, fingerprint: `fp-${id}`, source: 'test', now: at(0) }), meta);
      let h = 1;
      for (const toStatus of ['assigned', 'in_progress', 'fix_deployed', 'verifying', 'resolved'] as const) {
        await repo.execute(id, () => ({ kind: 'transition', toStatus, owner: 'ana', now: at(h++) }), meta);
      }
      await repo.execute(id, () => ({ kind: 'finalize_outcome', citationRateBefore: 0.1, citationRateAfter: 0.3, aiTrafficBefore: 10, aiTrafficAfter: 30, conversions: 2, revenue, now: at(h) }), meta);
      return id;
    };
    const recent = await resolveAt(10, 500);
    const old = await resolveAt(100, 900);
    const ancient = await resolveAt(400, 100);
    await api.projected(['opportunity_outcomes']);
    const def = await api.request({ url: '/api/v1/outcomes/_summary', key: org.key });
    const ids90 = def.body.data.rows.map((r: { opportunityId: number }) => r.opportunityId);
    expect(ids90).toContain(recent);
    expect(ids90).not.toContain(old);
    const year = await api.request({ url: '/api/v1/outcomes/_summary?sinceDays=365', key: org.key });
    const ids365 = year.body.data.rows.map((r: { opportunityId: number }) => r.opportunityId);
    expect(ids365).toEqual(expect.arrayContaining([recent, old]));
    expect(ids365).not.toContain(ancient);
    expect(year.body.data.totals.revenue).toBeGreaterThanOrEqual(1400);
    for (const q of ['?sinceDays=0', '?sinceDays=366', '?sinceDays=abc']) expect((await api.request({ url: `/api/v1/outcomes/_summary${q}`, key: org.key })).status).toBe(400);
    expect((await api.request({ url: '/api/v1/outcomes/_summary', key: other.key })).body.data.rows).toEqual([]);
  });

  it("a client-bound key sees its client's opportunities only", async () => {
    const client = await api.tenancy.createClient(org.id, 'Client X');
    const clientBrand = (await api.tenancy.createBrand({ organizationId: org.id, clientId: client.id, name: 'Xbrand', domain: 'xbrand.com' })).id;
    const bound = await api.keys.create({ organizationId: org.id, clientId: client.id, scopes: ['read:opportunities', 'write:opportunities'] });
    const mine = await create({ brandId: clientBrand, type: 'seo_task', severity: 'low', title: 'Sitemap misses /pricing' }, bound.key);
    expect(mine.status).toBe(201);
    expect((await create({ brandId: brand, type: 'seo_task', severity: 'low', title: 'x' }, bound.key)).status).toBe(404);
    const listed = await list('?includeTerminal=true&limit=200', bound.key);
    expect(listed.body.data.map((o: { id: number }) => o.id)).toEqual([mine.body.data.id]);
    expect(listed.body.meta.total).toBe(1);
    expect((await api.request({ url: `/api/v1/opportunities/${ids.sov}`, key: bound.key })).status).toBe(404);
    expect((await transition(ids.sov, { toStatus: 'dismissed' }, bound.key)).status).toBe(404);
    const kpis = await api.request({ url: '/api/v1/opportunities/_summary/kpis', key: bound.key });
    expect(kpis.body.data.total).toBe(1);
    // The organisation-wide key sees it too.
    expect((await api.request({ url: `/api/v1/opportunities/${mine.body.data.id}`, key: org.key })).status).toBe(200);
  });

  it("compares fingerprints within a client: a client-bound key is never answered with another client's opportunity", async () => {
    const client = await api.tenancy.createClient(org.id, 'Client Y');
    const clientBrand = (await api.tenancy.createBrand({ organizationId: org.id, clientId: client.id, name: 'Ybrand', domain: 'ybrand.com' })).id;
    const bound = await api.keys.create({ organizationId: org.id, clientId: client.id, scopes: ['read:opportunities', 'write:opportunities'] });
    const fingerprint = `shared-${client.id}`;
    const outside = await create({ brandId: brand, type: 'misinformation', severity: 'high', title: 'Wrong price for Acme', fingerprint });
    expect(outside.status).toBe(201);
    const inside = await create({ brandId: clientBrand, type: 'misinformation', severity: 'high', title: 'Wrong price for Y', fingerprint }, bound.key);
    expect(inside.status).toBe(201);
    expect(inside.body.data).toMatchObject({ brandId: clientBrand, title: 'Wrong price for Y' });
    // Within the client the fingerprint still de-duplicates, whichever key reports.
    const orgWide = await create({ brandId: clientBrand, type: 'misinformation', severity: 'high', title: 'Same, from the agency', fingerprint });
    expect(orgWide.status).toBe(200);
    expect(orgWide.body.data.id).toBe(inside.body.data.id);
  });

  it('rebuilds each opportunity projection from zero equal to the live one, row for row', async () => {
    const store = api.app.get<EventStore>(EVENT_STORE);
    await api.projected(['opportunities', 'opportunity_counts', 'opportunity_outcomes']);
    const tables: Record<string, string> = {
      opportunities: 'SELECT * FROM opportunities ORDER BY id',
      opportunity_list_counts: 'SELECT * FROM opportunity_list_counts WHERE count <> 0 ORDER BY 1, 2, 3, 4, 5, 6',
      opportunity_counts: 'SELECT * FROM opportunity_counts WHERE count <> 0 ORDER BY 1, 2, 3, 4',
      opportunity_outcomes: 'SELECT * FROM opportunity_outcomes ORDER BY opportunity_id',
    };
    for (const projector of [opportunitiesProjector, opportunityCountsProjector, opportunityOutcomesProjector]) {
      const before = await Promise.all(projector.tables.filter((t) => tables[t]).map((t) => api.dataSource.query(tables[t])));
      await new ProjectionRebuilder(api.dataSource, store, 100).rebuild(projector);
      const after = await Promise.all(projector.tables.filter((t) => tables[t]).map((t) => api.dataSource.query(tables[t])));
      expect(after).toEqual(before);
      expect(before.length).toBeGreaterThan(0);
    }
  });
});
