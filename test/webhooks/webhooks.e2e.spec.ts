import { CommandBus } from '@nestjs/cqrs';
import { WorkerPartModule } from '../../apps/worker/src/worker.module';
import { FinalizeOutcomeCommand, RecordVerificationCommand, type Status } from '@libs/opportunities';
import { until } from '../support/processes';
import { startTestApi, type TestApi } from '../support/test-api';
import { Receiver, type Behaviour } from './support/receiver';
import { openApiValidator } from '../support/openapi-schemas';

/**
 * Webhooks end to end: the API and the worker (dispatcher projector, outbox relay, BullMQ
 * delivery processor, reconciler) in one process against real PostgreSQL and Redis, delivering
 * to a real HTTP receiver on 127.0.0.1 that verifies every signature with `standardwebhooks`.
 * The retry schedule runs in milliseconds; "5 days of failures" is 1.5 s here.
 */
let api: TestApi;
let org: { id: number; key: string; keyId: number };
let other: { id: number; key: string; keyId: number };
let brand: number;
let otherBrand: number;
const receiver = new Receiver();

beforeAll(async () => {
  await receiver.start();
  api = await startTestApi(
    {
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_RETRY_SCHEDULE_MS: '100,200,300',
      WEBHOOK_RELAY_POLL_MS: '100',
      WEBHOOK_RECONCILE_MS: '500',
      WEBHOOK_DISABLE_AFTER_MS: '1500',
      WEBHOOK_TIMEOUT_MS: '2000',
    },
    [WorkerPartModule.forRoot()],
  );
  org = await api.organization();
  other = await api.organization();
  brand = (await api.tenancy.createBrand({ organizationId: org.id, name: 'Acme', domain: 'acme.com' })).id;
  otherBrand = (await api.tenancy.createBrand({ organizationId: other.id, name: 'Other', domain: 'other.com' })).id;
});
afterAll(async () => {
  await api?.close();
  await receiver.stop();
});

const ALL = ['opportunity.opened', 'opportunity.resolved', 'verification.completed', 'outcome.finalized', 'opportunity.transitioned'];

async function subscribe(path: string, events: string[], extra: Record<string, unknown> = {}, key = org.key) {
  const r = await api.request({ method: 'POST', url: '/api/v1/webhooks', key, body: { url: receiver.url(path), events, ...extra } });
  expect(r.status).toBe(201);
  receiver.register(path, r.body.data.secret);
  return r.body.data as { id: number; secret: string };
}

async function open(title: string, key = org.key, brandId = brand): Promise<number> {
  const r = await api.request({ method: 'POST', url: '/api/v1/opportunities', key, body: { brandId, type: 'competitor_gap', severity: 'high', title } });
  expect(r.status).toBe(201);
  return r.body.data.id;
}

async function move(id: number, path: Status[], key = org.key): Promise<void> {
  for (const toStatus of path) {
    const r = await api.request({ method: 'POST', url: `/api/v1/opportunities/${id}/transition`, key, body: { toStatus, owner: toStatus === 'assigned' ? 'ana' : undefined, reason: `to ${toStatus}` } });
    expect(r.status).toBe(200);
  }
}

const deliveriesOf = async (id: number, query = '') => (await api.request({ url: `/api/v1/webhooks/${id}/deliveries${query}`, key: org.key })).body.data;
const webhook = async (id: number) => (await api.request({ url: `/api/v1/webhooks/${id}`, key: org.key })).body.data;

describe('webhook subscriptions', () => {
  it('creates (201) with a Standard Webhooks secret shown once; reads, lists (paginated), never shows the secret again', async () => {
    const r = await api.request({
      method: 'POST', url: '/api/v1/webhooks', key: org.key,
      body: { url: receiver.url('/crud'), events: ['opportunity.opened'], description: 'CRM sync', headers: { 'X-Team': 'growth' } },
    });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({ organizationId: org.id, url: receiver.url('/crud'), events: ['opportunity.opened'], description: 'CRM sync', isActive: true, headerNames: ['X-Team'] });
    expect(r.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const id = r.body.data.id;
    const read = await api.request({ url: `/api/v1/webhooks/${id}`, key: org.key });
    expect(read.status).toBe(200);
    expect(read.body.data.secret).toBeUndefined();
    expect(JSON.stringify(read.body)).not.toContain(r.body.data.secret.slice(6));
    expect(JSON.stringify(read.body)).not.toContain('growth');
    for (let i = 0; i < 3; i++) await subscribe(`/crud-${i}`, ['opportunity.opened']);
    const page1 = await api.request({ url: '/api/v1/webhooks?limit=2&offset=0', key: org.key });
    expect(page1.status).toBe(200);
    expect(page1.body.meta).toEqual({ total: 4, limit: 2, offset: 0, hasMore: true });
    expect(page1.body.data).toHaveLength(2);
    expect(page1.body.data.every((w: Record<string, unknown>) => w.secret === undefined)).toBe(true);
    const page2 = await api.request({ url: '/api/v1/webhooks?limit=2&offset=2', key: org.key });
    expect(page2.body.meta.hasMore).toBe(false);
    expect((await api.request({ url: '/api/v1/webhooks', key: other.key })).body.meta.total).toBe(0);
    expect((await api.request({ url: '/api/v1/webhooks?limit=0', key: org.key })).status).toBe(400);
    expect((await api.request({ url: '/api/v1/webhooks?sort=url', key: org.key })).status).toBe(400);
    // Clean up so later counts are not disturbed.
    for (const w of [...page1.body.data, ...page2.body.data]) expect((await api.request({ method: 'DELETE', url: `/api/v1/webhooks/${w.id}`, key: org.key })).status).toBe(200);
    expect((await api.request({ url: `/api/v1/webhooks/${id}`, key: org.key })).status).toBe(404);
  });

  it('lists the event types: the contract four and the additions, with a description and an example each', async () => {
    const r = await api.request({ url: '/api/v1/webhooks/events', key: org.key });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual(expect.arrayContaining(['opportunity.opened', 'opportunity.resolved', 'verification.completed', 'outcome.finalized', 'opportunity.transitioned', 'webhook.test']));
    for (const d of r.body.details) expect(d.example.type).toBe(d.type);
  });

  it('refuses invalid create bodies with 400 VALIDATION_ERROR naming the field', async () => {
    const base = { url: receiver.url('/x'), events: ['opportunity.opened'] };
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v']));
    const cases: [Record<string, unknown>, string][] = [
      [{ events: ['opportunity.opened'] }, 'url'],
      [{ ...base, url: 'not a url' }, 'url'],
      [{ ...base, url: 'ftp://127.0.0.1/x' }, 'url'],
      [{ ...base, url: 'http://user:pw@127.0.0.1/x' }, 'url'],
      [{ url: base.url }, 'events'],
      [{ ...base, events: [] }, 'events'],
      [{ ...base, events: ['opportunity.opened', 'opportunity.exploded'] }, 'events'],
      [{ ...base, events: 'opportunity.opened' }, 'events'],
      [{ ...base, description: 'x'.repeat(501) }, 'description'],
      [{ ...base, isActive: 'yes' }, 'isActive'],
      [{ ...base, headers: many }, 'headers'],
      [{ ...base, headers: { 'webhook-signature': 'v1,forged' } }, 'headers'],
      [{ ...base, headers: { 'Content-Type': 'text/plain' } }, 'headers'],
      [{ ...base, headers: { 'X-Bad': 'a\r\nInjected: 1' } }, 'headers'],
      [{ ...base, headers: { 'Bad Name': 'v' } }, 'headers'],
      [{ ...base, headers: { 'X-Num': 5 } }, 'headers'],
      [{ ...base, headers: { 'X-Long': 'v'.repeat(1025) } }, 'headers'],
      [{ ...base, headers: ['X-A'] }, 'headers'],
      [{ ...base, secret: 'whsec_AAAA' }, 'secret'],
    ];
    for (const [body, field] of cases) {
      const r = await api.request({ method: 'POST', url: '/api/v1/webhooks', key: org.key, body });
      expect({ body, status: r.status, code: r.body?.error?.code }).toEqual({ body, status: 400, code: 'VALIDATION_ERROR' });
      expect(r.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    expect((await api.request({ method: 'POST', url: '/api/v1/webhooks', key: org.key, body: '{"url":' , headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect((await api.request({ url: '/api/v1/webhooks', key: org.key })).body.meta.total).toBe(0);
  });

  it('updates url, events, description, isActive; refuses the secret, headers and bad values (400); 404 for another organisation', async () => {
    const w = await subscribe('/patch', ['opportunity.opened']);
    const ok = await api.request({ method: 'PATCH', url: `/api/v1/webhooks/${w.id}`, key: org.key, body: { events: ['opportunity.resolved'], description: 'changed', url: receiver.url('/patch2') } });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ events: ['opportunity.resolved'], description: 'changed', url: receiver.url('/patch2') });
    expect(ok.body.data.secret).toBeUndefined();
    for (const body of [{ secret: 'whsec_AAAA' }, { headers: { 'X-A': 'b' } }, { events: [] }, { events: ['nope'] }, { url: 'nope' }, { description: 'x'.repeat(501) }, { isActive: 'no' }, { id: 5 }]) {
      const r = await api.request({ method: 'PATCH', url: `/api/v1/webhooks/${w.id}`, key: org.key, body });
      expect({ body, status: r.status, code: r.body.error?.code }).toEqual({ body, status: 400, code: 'VALIDATION_ERROR' });
    }
    for (const [method, url, body] of [
      ['GET', `/api/v1/webhooks/${w.id}`, undefined],
      ['PATCH', `/api/v1/webhooks/${w.id}`, { description: 'mine now' }],
      ['DELETE', `/api/v1/webhooks/${w.id}`, undefined],
      ['GET', `/api/v1/webhooks/${w.id}/deliveries`, undefined],
      ['POST', `/api/v1/webhooks/${w.id}/test`, undefined],
    ] as const) {
      const r = await api.request({ method, url, key: other.key, body });
      expect({ method, url, status: r.status, code: r.body.error?.code }).toEqual({ method, url, status: 404, code: 'NOT_FOUND' });
    }
    for (const bad of ['abc', '0', '-1', '1.5']) expect((await api.request({ url: `/api/v1/webhooks/${bad}`, key: org.key })).status).toBe(400);
    expect((await api.request({ url: '/api/v1/webhooks/999999', key: org.key })).status).toBe(404);
    expect((await webhook(w.id)).description).toBe('changed');
    expect((await api.request({ method: 'DELETE', url: `/api/v1/webhooks/${w.id}`, key: org.key })).body).toEqual({ data: { id: w.id, deleted: true } });
  });

  it('needs read:webhooks to read and write:webhooks to change', async () => {
    const reader = await api.organization({ scopes: ['read:webhooks'] });
    const r = await api.request({ method: 'POST', url: '/api/v1/webhooks', key: reader.key, body: { url: receiver.url('/s'), events: ['opportunity.opened'] } });
    expect(r.status).toBe(403);
    expect(r.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { required: 'write:webhooks' } });
    expect((await api.request({ url: '/api/v1/webhooks', key: reader.key })).status).toBe(200);
    const writer = await api.organization({ scopes: ['write:webhooks'] });
    expect((await api.request({ url: '/api/v1/webhooks/events', key: writer.key })).status).toBe(403);
  });
});

describe('deliveries', () => {
  it('delivers the four lifecycle events (and every transition) signed, with the right data, only to active subscribers of the organisation', async () => {
    const all = await subscribe('/all', ALL, { headers: { 'X-Team': 'growth' } });
    await subscribe('/resolved-only', ['opportunity.resolved']);
    await subscribe('/inactive', ALL, { isActive: false });
    const paused = await subscribe('/paused', ALL);
    expect((await api.request({ method: 'PATCH', url: `/api/v1/webhooks/${paused.id}`, key: org.key, body: { isActive: false } })).body.data.isActive).toBe(false);
    await subscribe('/other-org', ALL, {}, other.key);

    const id = await open('Competitor cited on pricing');
    await move(id, ['assigned', 'in_progress', 'fix_deployed', 'verifying']);
    const bus = api.app.get(CommandBus);
    const actor = { organizationId: org.id, subject: `key:${org.keyId}`, actor: `key:${org.keyId}` };
    await bus.execute(new RecordVerificationCommand(id, 'passed', { cited: 9 }, actor, 'test'));
    await move(id, ['resolved']);
    await bus.execute(new FinalizeOutcomeCommand(id, { citationRateBefore: 0.1, citationRateAfter: 0.4, aiTrafficBefore: 10, aiTrafficAfter: 40, conversions: 3, revenue: 120, currency: 'EUR' }, actor, 'test'));
    await open('Another org', other.key, otherBrand);

    await until(() => receiver.on('/all').length >= 9 && receiver.on('/resolved-only').length >= 1 && receiver.on('/other-org').length >= 1, 20_000, 'deliveries');
    await new Promise((r) => setTimeout(r, 500)); // nothing more should come
    const got = receiver.on('/all');
    expect(got.every((r) => r.verified)).toBe(true);
    expect(got.map((r) => r.type).sort()).toEqual(
      ['opportunity.opened', 'opportunity.resolved', 'outcome.finalized', 'verification.completed', ...Array(5).fill('opportunity.transitioned')].sort(),
    );
    expect(new Set(got.map((r) => r.id)).size).toBe(9);
    expect(got[0].headers['x-team']).toBe('growth');
    expect(got[0].headers['content-type']).toBe('application/json');
    const of = (type: string) => got.find((r) => r.type === type)!.body;
    // Each payload carries the record exactly as GET answers it at the event's revision (asOf its time).
    const asOf = async (at: string) => (await api.request({ url: `/api/v1/opportunities/${id}?asOf=${encodeURIComponent(at)}`, key: org.key })).body.data;
    const opened = of('opportunity.opened');
    expect(opened.data).toEqual(await asOf(opened.timestamp));
    expect(opened.data).toMatchObject({ id, organizationId: org.id, brandId: brand, type: 'competitor_gap', severity: 'high', title: 'Competitor cited on pricing', status: 'detected', version: 0 });
    const transitions = got.filter((r) => r.type === 'opportunity.transitioned').map((r) => r.body);
    for (const t of transitions) {
      const { change, ...record } = t.data;
      expect(record).toEqual(await asOf(t.timestamp));
      expect(change).toEqual({ from: expect.any(String), to: record.status, reason: `to ${record.status}`, actor: `key:${org.keyId}`, at: record.updatedAt });
    }
    expect(transitions.map((t) => t.data.version).sort()).toEqual([1, 2, 3, 4, 6]);
    const resolved = of('opportunity.resolved');
    expect(resolved.data).toMatchObject({ status: 'resolved', resolvedAt: expect.any(String), change: { from: 'verifying', to: 'resolved' } });
    const verified = of('verification.completed');
    expect(verified.data).toEqual({ opportunity: await asOf(verified.timestamp), verification: { status: 'passed', details: { cited: 9 }, checkedAt: expect.any(String) } });
    expect(verified.data.opportunity).toMatchObject({ status: 'verifying', version: 5, verification: verified.data.verification });
    const finalized = of('outcome.finalized');
    expect(finalized.data).toEqual({ opportunity: await asOf(finalized.timestamp), outcome: expect.objectContaining({ citationRateAfter: 0.4, conversions: 3, revenue: 120, currency: 'EUR' }) });
    expect(opened.timestamp).toMatch(/^\d{4}-\d\d-\d\dT/);
    const moves = transitions.map((t) => { const c = t.data.change as { from: string; to: string }; return `${c.from}>${c.to}`; });
    expect(moves.sort()).toEqual(['assigned>in_progress', 'detected>assigned', 'fix_deployed>verifying', 'in_progress>fix_deployed', 'verifying>resolved'].sort());
    // Every delivery conforms to its event's schema in the OpenAPI document's webhooks section.
    const doc = (await api.request({ url: '/api/v1/openapi.json' })).body;
    const validate = openApiValidator(doc);
    for (const r of [...got, ...receiver.on('/other-org')]) {
      const schema = doc.webhooks[r.type].post.requestBody.content['application/json'].schema;
      expect({ type: r.type, problems: validate(schema, r.body) }).toEqual({ type: r.type, problems: [] });
    }
    // The check has teeth: a payload missing a field, or with one the document does not name, fails.
    const schema = doc.webhooks['opportunity.opened'].post.requestBody.content['application/json'].schema;
    const { fingerprint: _dropped, ...incomplete } = opened.data;
    expect(validate(schema, { ...opened, data: incomplete })).not.toEqual([]);
    expect(validate(schema, { ...opened, data: { ...opened.data, opportunityId: id } })).not.toEqual([]);

    expect(receiver.on('/resolved-only').map((r) => [r.type, r.verified, r.body.data.id])).toEqual([['opportunity.resolved', true, id]]);
    expect(receiver.on('/inactive')).toEqual([]);
    expect(receiver.on('/paused')).toEqual([]);
    expect(receiver.on('/other-org').map((r) => r.body.data.organizationId)).toEqual([other.id]);

    // The history: newest first, each succeeded on its first attempt.
    const history = await deliveriesOf(all.id);
    expect(history).toHaveLength(9);
    expect(history.every((d: { status: string; attemptCount: number; statusCode: number }) => d.status === 'succeeded' && d.attemptCount === 1 && d.statusCode === 200)).toBe(true);
    const created = history.map((d: { createdAt: string }) => d.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
    expect(new Set(history.map((d: { id: string }) => d.id))).toEqual(new Set(got.map((r) => r.id)));
    expect((await deliveriesOf(all.id, '?limit=2'))).toHaveLength(2);
    expect((await api.request({ url: `/api/v1/webhooks/${all.id}/deliveries?limit=0`, key: org.key })).status).toBe(400);
    expect((await api.request({ url: `/api/v1/webhooks/${all.id}/deliveries?limit=201`, key: org.key })).status).toBe(400);
  });

  it('POST /test queues a signed webhook.test and answers 200 with the delivery id', async () => {
    const w = await subscribe('/tested', ['opportunity.opened']);
    const r = await api.request({ method: 'POST', url: `/api/v1/webhooks/${w.id}/test`, key: org.key });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ webhookId: w.id, eventType: 'webhook.test', status: 'pending' });
    await until(() => receiver.on('/tested').length === 1, 10_000, 'the test delivery');
    const [got] = receiver.on('/tested');
    expect(got).toMatchObject({ id: r.body.data.deliveryId, type: 'webhook.test', verified: true });
    expect(got.body.data.webhookId).toBe(w.id);
  });

  it('retries a receiver failing twice: same webhook-id every attempt, one success recorded with each attempt', async () => {
    const w = await subscribe('/flaky', ['opportunity.opened'], {});
    receiver.register('/flaky', w.secret, (attempt) => (attempt <= 2 ? { status: 500, body: `broken ${attempt}` } : { status: 204 }));
    const id = await open('Flaky receiver');
    await move(id, ['triaged']); // the opportunity changes before the retries
    await until(() => receiver.on('/flaky').length >= 3, 15_000, 'three attempts');
    await new Promise((r) => setTimeout(r, 500));
    const got = receiver.on('/flaky');
    expect(got).toHaveLength(3);
    expect(new Set(got.map((r) => r.id)).size).toBe(1);
    expect(got.every((r) => r.verified && r.body.data.id === id)).toBe(true);
    // Every attempt sends the payload of its event, byte for byte: the record as it was when it opened.
    expect(new Set(got.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(got[2].body.data).toMatchObject({ status: 'detected', version: 0 });
    expect(got[2].receivedAt).toBeGreaterThan(Date.parse((await api.request({ url: `/api/v1/opportunities/${id}`, key: org.key })).body.data.updatedAt));
    // The schedule's first two delays (100 ms, 200 ms) separate the attempts.
    expect(got[1].receivedAt - got[0].receivedAt).toBeGreaterThanOrEqual(90);
    expect(got[2].receivedAt - got[1].receivedAt).toBeGreaterThanOrEqual(190);
    await until(async () => (await deliveriesOf(w.id))[0]?.status === 'succeeded', 5000, 'recorded success');
    const [d] = await deliveriesOf(w.id);
    expect(d).toMatchObject({ id: got[0].id, status: 'succeeded', attemptCount: 3, statusCode: 204 });
    expect(d.attempts.map((a: { attempt: number; statusCode: number }) => [a.attempt, a.statusCode])).toEqual([[3, 204], [2, 500], [1, 500]]);
    expect(d.attempts[1]).toMatchObject({ error: 'HTTP 500', responseExcerpt: 'broken 2' });
    expect(d.attempts.every((a: { durationMs: number }) => a.durationMs >= 0)).toBe(true);
    expect((await webhook(w.id)).failingSince).toBeNull();
  });

  it('honours Retry-After and treats a redirect as a failure (not followed)', async () => {
    const w = await subscribe('/later', ['opportunity.opened']);
    receiver.register('/later', w.secret, (attempt): ReturnType<Behaviour> => (attempt === 1 ? { status: 503, headers: { 'retry-after': '1' } } : attempt === 2 ? { status: 302, headers: { location: receiver.url('/elsewhere') } } : { status: 200 }));
    await open('Busy receiver');
    await until(() => receiver.on('/later').length >= 3, 15_000, 'three attempts');
    const got = receiver.on('/later');
    expect(got[1].receivedAt - got[0].receivedAt).toBeGreaterThanOrEqual(950);
    expect(receiver.on('/elsewhere')).toEqual([]);
    await until(async () => (await deliveriesOf(w.id))[0]?.status === 'succeeded', 5000, 'recorded success');
    const [d] = await deliveriesOf(w.id);
    expect(d.attempts[1]).toMatchObject({ statusCode: 302, error: 'redirect (302) not followed' });
  });

  it('gives up after the schedule (1 + 3 attempts): the delivery is failed', async () => {
    const w = await subscribe('/broken', ['opportunity.opened']);
    receiver.register('/broken', w.secret, () => ({ status: 500 }));
    await open('Broken receiver');
    await until(async () => (await deliveriesOf(w.id))[0]?.status === 'failed', 15_000, 'the delivery to fail');
    expect(receiver.on('/broken')).toHaveLength(4);
    expect((await deliveriesOf(w.id))[0]).toMatchObject({ attemptCount: 4, status: 'failed', nextAttemptAt: null });
  });

  it('410 deactivates the subscription; an inactive subscription receives nothing and cannot be tested (409)', async () => {
    const w = await subscribe('/gone', ['opportunity.opened']);
    receiver.register('/gone', w.secret, () => ({ status: 410 }));
    await open('Gone receiver');
    await until(async () => (await webhook(w.id)).isActive === false, 10_000, 'deactivation');
    expect(await webhook(w.id)).toMatchObject({ isActive: false, deactivatedReason: 'gone' });
    expect((await deliveriesOf(w.id))[0]).toMatchObject({ status: 'failed', attemptCount: 1, statusCode: 410 });
    await open('After gone');
    await new Promise((r) => setTimeout(r, 1000));
    expect(receiver.on('/gone')).toHaveLength(1);
    const t = await api.request({ method: 'POST', url: `/api/v1/webhooks/${w.id}/test`, key: org.key });
    expect(t.status).toBe(409);
    expect(t.body.error.code).toBe('CONFLICT');
    // Re-activation clears the deactivation.
    const back = await api.request({ method: 'PATCH', url: `/api/v1/webhooks/${w.id}`, key: org.key, body: { isActive: true } });
    expect(back.body.data).toMatchObject({ isActive: true, deactivatedReason: null });
  });

  it('deactivates a subscription that has had nothing but failures for the configured time (5 days in production)', async () => {
    const w = await subscribe('/down', ['opportunity.opened']);
    receiver.register('/down', w.secret, () => ({ status: 500 }));
    await open('Down receiver 1');
    await until(async () => (await webhook(w.id)).failingSince !== null, 10_000, 'a failure run');
    expect((await webhook(w.id)).isActive).toBe(true);
    await new Promise((r) => setTimeout(r, 1600));
    await open('Down receiver 2');
    await until(async () => (await webhook(w.id)).isActive === false, 10_000, 'deactivation');
    expect((await webhook(w.id)).deactivatedReason).toBe('failing');
  });
});
