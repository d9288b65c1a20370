import { Pool } from 'pg';
import { EventSchemaRegistry, ExpectedRevision, PostgresEventStore } from '@libs/event-store';
import { Redis } from 'ioredis';
import { createTestDatabase, testRedisPrefix, type TestDatabase } from './support/test-database';
import { cli } from './support/cli';

// Every case starts CLI processes (a few seconds each on a loaded 2-core machine).
jest.setTimeout(180_000);

/** The administration CLI over a real database: --json prints exactly one JSON document. */
let db: TestDatabase;
let store: PostgresEventStore;
let env: Record<string, string>;

beforeAll(async () => {
  db = await createTestDatabase({ migrate: false });
  env = { DATABASE_URL: db.url };
  store = new PostgresEventStore({ pool: new Pool({ connectionString: db.url }), ownsPool: true, connectionString: db.url, registry: new EventSchemaRegistry() });
});
afterAll(async () => {
  await store?.close();
  await db?.drop();
});

describe('cli', () => {
  it('db migrate applies the migrations once', async () => {
    const first = await cli(['--json', 'db', 'migrate'], env);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout).applied.length).toBeGreaterThanOrEqual(3);
    const again = await cli(['--json', 'db', 'migrate'], env);
    expect(JSON.parse(again.stdout)).toEqual({ created: false, applied: [] });
  });

  it('events tail prints one stream, or the feed, one JSON object a line', async () => {
    await store.appendToStream('opportunity-1', [1, 2, 3].map((n) => ({ type: 'opportunity.noted', data: { n }, metadata: { actor: 'key:9' } })), ExpectedRevision.noStream);
    await store.appendToStream('opportunity-2', [{ type: 'opportunity.detected', data: { n: 4 } }], ExpectedRevision.noStream);
    const stream = await cli(['events', 'tail', '--stream', 'opportunity-1'], env);
    expect(stream.code).toBe(0);
    const lines = stream.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.streamPosition, l.type, l.data.n, l.metadata.actor])).toEqual([
      ['0', 'opportunity.noted', 1, 'key:9'],
      ['1', 'opportunity.noted', 2, 'key:9'],
      ['2', 'opportunity.noted', 3, 'key:9'],
    ]);
    const last = await cli(['events', 'tail', '--last', '2'], env);
    expect(last.stdout.trim().split('\n').map((l) => JSON.parse(l).data.n)).toEqual([3, 4]);
    const after = await cli(['events', 'tail', '--from', lines[1].position], env);
    expect(after.stdout.trim().split('\n').map((l) => JSON.parse(l).data.n)).toEqual([3, 4]);
    const bad = await cli(['events', 'tail', '--from', 'yesterday'], env);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/not a feed position/);
  });

  it('projections status and rebuild report as one JSON document', async () => {
    const status = await cli(['--json', 'projections', 'status'], env);
    expect(status.code).toBe(0);
    const parsed = JSON.parse(status.stdout);
    expect(parsed).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'event_type_counts', lag: 4 })]));
    const rebuild = await cli(['--json', 'projections', 'rebuild', 'event_type_counts'], env);
    expect(rebuild.code).toBe(0);
    expect(JSON.parse(rebuild.stdout)).toMatchObject({ projector: 'event_type_counts', eventsRead: 4 });
    const counts = await store['options'].pool.query(`SELECT type, count::int FROM event_type_counts ORDER BY type`);
    expect(counts.rows).toEqual([
      { type: 'opportunity.detected', count: 1 },
      { type: 'opportunity.noted', count: 3 },
    ]);
    const after = JSON.parse((await cli(['--json', 'projections', 'status'], env)).stdout);
    expect(after[0]).toMatchObject({ name: 'event_type_counts', lag: 0, eventsApplied: 4 });
    const unknown = await cli(['--json', 'projections', 'rebuild', 'nope'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(/unknown projection "nope"/);
  });

  it('projections in shards: status lists each shard\'s checkpoint, a rebuild resets them all, shards prints who holds each unit', async () => {
    const sharded = { ...env, PROJECTION_SHARDS: '2' };
    const rebuild = await cli(['--json', 'projections', 'rebuild', 'event_type_counts'], sharded);
    expect(rebuild.code).toBe(0);
    const status = JSON.parse((await cli(['--json', 'projections', 'status'], sharded)).stdout) as { name: string; lag: number; eventsApplied: number }[];
    const shards = status.filter((s) => s.name.startsWith('event_type_counts'));
    expect(shards.map((s) => s.name)).toEqual(['event_type_counts#0/2', 'event_type_counts#1/2']);
    expect(shards.every((s) => s.lag === 0)).toBe(true);
    expect(shards.reduce((n, s) => n + s.eventsApplied, 0)).toBe(4);
    await store['options'].pool.query(`INSERT INTO projection_shard_owners (group_name, shard, shard_count, owner, since) VALUES ('operations', 1, 2, 'gone:1:abcd', '2026-01-02T03:04:05Z')`);
    const owners = await cli(['--json', 'projections', 'shards'], sharded);
    expect(owners.code).toBe(0);
    expect(JSON.parse(owners.stdout)).toEqual([{ group: 'operations', shard: 1, shardCount: 2, owner: 'gone:1:abcd', since: '2026-01-02T03:04:05.000Z', live: false }]);
    // Back to one shard: a rebuild again.
    expect((await cli(['--json', 'projections', 'rebuild', 'event_type_counts'], env)).code).toBe(0);
  });

  it('org, client, brand and key commands (run in the Nest application context) print one JSON document', async () => {
    const json = async (args: string[]) => {
      const r = await cli(['--json', ...args], env);
      expect(r).toMatchObject({ code: 0, stderr: '' });
      return JSON.parse(r.stdout);
    };
    const org = await json(['org', 'create', '--name', 'Acme Agency', '--tier', 'standard']);
    expect(org).toEqual({ id: expect.any(Number), name: 'Acme Agency', tier: 'standard' });
    const client = await json(['client', 'create', '--org', String(org.id), '--name', 'Northwind']);
    expect(client).toEqual({ id: expect.any(Number), organizationId: org.id, name: 'Northwind' });
    const brand = await json(['brand', 'create', '--org', String(org.id), '--client', String(client.id), '--name', 'Acme', '--domain', 'acme.example', '--competitor', 'Rival=rival.example']);
    expect(brand).toMatchObject({ id: expect.any(Number), name: 'Acme', domain: 'acme.example' });
    const key = await json(['key', 'create', '--org', String(org.id), '--scopes', 'read:brands', '--expires-in', '1h']);
    expect(key).toMatchObject({ id: expect.any(Number), key: expect.stringMatching(/^ak_/), scopes: ['read:brands'], tier: 'standard', clientId: null });
    const revoked = await json(['key', 'revoke', '--id', String(key.id)]);
    expect(revoked).toEqual({ id: key.id, revokedAt: expect.any(String) });
    const missing = await cli(['--json', 'key', 'revoke', '--id', '999999'], env);
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toMatch(/key 999999 does not exist/);
    const badTier = await cli(['org', 'create', '--name', 'X', '--tier', 'gold'], env);
    expect(badTier).toMatchObject({ code: 2, stdout: '' });
  });

  it('prompt add|list|remove and brand schedule manage what a brand is asked', async () => {
    const json = async (args: string[]) => {
      const r = await cli(['--json', ...args], env);
      expect(r).toMatchObject({ code: 0, stderr: '' });
      return JSON.parse(r.stdout);
    };
    const org = await json(['org', 'create', '--name', 'Prompt Co']);
    const brand = await json(['brand', 'create', '--org', String(org.id), '--name', 'Zeta', '--domain', 'zeta.example']);
    const b = String(brand.id);
    const added = await json(['prompt', 'add', '--brand', b, '--query', 'best  zeta alternative', '--tag', 'alt', '--provider', 'claude', '--provider', 'gemini']);
    expect(added).toMatchObject({ id: expect.any(Number), brandId: brand.id, query: 'best zeta alternative', tags: ['alt'], providers: ['claude', 'gemini'], isActive: true });
    const parked = await json(['prompt', 'add', '--brand', b, '--query', 'zeta pricing', '--inactive']);
    expect(parked).toMatchObject({ isActive: false, providers: ['chatgpt', 'claude', 'gemini', 'perplexity'] });
    expect((await json(['prompt', 'list', '--brand', b])).map((p: { id: number }) => p.id)).toEqual([added.id, parked.id]);
    expect((await json(['prompt', 'list', '--brand', b, '--active'])).map((p: { id: number }) => p.id)).toEqual([added.id]);
    const duplicate = await cli(['prompt', 'add', '--brand', b, '--query', 'BEST zeta alternative'], env);
    expect(duplicate).toMatchObject({ code: 2, stdout: '' });
    expect(duplicate.stderr).toMatch(/already tracks this query/);
    const badProvider = await cli(['prompt', 'add', '--brand', b, '--query', 'x', '--provider', 'bing'], env);
    expect(badProvider.stderr).toMatch(/unknown provider\(s\): bing/);
    // A market makes the same query another prompt (DESIGN §17); its values are normalised, bad ones refused.
    const german = await json(['prompt', 'add', '--brand', b, '--query', 'BEST zeta alternative', '--country', 'de', '--language', 'de-at', '--inactive']);
    expect(german).toMatchObject({ query: 'BEST zeta alternative', country: 'DE', language: 'de-AT' });
    expect((await cli(['prompt', 'add', '--brand', b, '--query', 'x', '--country', 'EU'], env)).stderr).toMatch(/country must be an ISO 3166-1 alpha-2 country code/);
    expect((await cli(['prompt', 'add', '--brand', b, '--query', 'x', '--language', 'zz'], env)).stderr).toMatch(/language must be a BCP 47 language tag/);
    expect(await json(['prompt', 'remove', '--brand', b, '--id', String(german.id)])).toEqual({ id: german.id, deleted: true });
    expect((await cli(['prompt', 'add', '--brand', b, '--query', 'x'.repeat(1001)], env)).stderr).toMatch(/at most 1000 characters/);
    expect((await cli(['prompt', 'list', '--brand', '999999'], env)).stderr).toMatch(/brand 999999 does not exist/);
    expect(await json(['prompt', 'remove', '--brand', b, '--id', String(parked.id)])).toEqual({ id: parked.id, deleted: true });
    expect((await cli(['prompt', 'remove', '--brand', b, '--id', String(parked.id)], env)).code).toBe(2);

    expect(await json(['brand', 'schedule', '--brand', b])).toEqual({ brandId: brand.id, schedule: 'daily', lastRunAt: null });
    expect(await json(['brand', 'schedule', '--brand', b, '--every', 'weekly'])).toEqual({ brandId: brand.id, schedule: 'weekly', lastRunAt: null });
    expect(await json(['brand', 'schedule', '--brand', b])).toMatchObject({ schedule: 'weekly' });
    expect((await cli(['brand', 'schedule', '--brand', b, '--every', 'hourly'], env)).stderr).toMatch(/--every must be daily, weekly, off/);
  });

  it('budget set|show set and print an organisation budgets, refusing bad amounts (exit 2)', async () => {
    const org = JSON.parse((await cli(['--json', 'org', 'create', '--name', 'Budgeted'], env)).stdout);
    const set = await cli(['--json', 'budget', 'set', '--org', String(org.id), '--monthly-usd', '250', '--per-run-usd', '2.5'], env);
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ organizationId: org.id, monthlyUsd: 250, perRunUsd: 2.5, currentMonth: { spentUsd: 0, reservedUsd: 0 } });
    // An option left out keeps its value; none removes a budget.
    await cli(['budget', 'set', '--org', String(org.id), '--per-run-usd', 'none'], env);
    const shown = await cli(['--json', 'budget', 'show', '--org', String(org.id)], env);
    expect(JSON.parse(shown.stdout)).toMatchObject({ monthlyUsd: 250, perRunUsd: null });
    for (const bad of [['--monthly-usd', '-1'], ['--per-run-usd', 'lots'], []]) {
      const refused = await cli(['--json', 'budget', 'set', '--org', String(org.id), ...bad], env);
      expect([bad.join(' '), refused.code, refused.stdout]).toEqual([bad.join(' '), 2, '']);
    }
  });

  it('webhooks reseal seals plain-text and old-key values with the first key (the rotation step)', async () => {
    const { randomBytes } = await import('node:crypto');
    const { WebhookSecretBox } = await import('@libs/webhooks');
    const oldKey = `old:${randomBytes(32).toString('base64')}`;
    const newKey = `new:${randomBytes(32).toString('base64')}`;
    const old = new WebhookSecretBox({ encryptionKeys: oldKey, encryptionKeyFile: '' });
    const pool = new Pool({ connectionString: db.url });
    const [{ id: org }] = (await pool.query(`INSERT INTO organizations (name, tier) VALUES ('Reseal', 'standard') RETURNING id`)).rows;
    const insert = `INSERT INTO webhooks (organization_id, url, events, headers, secret) VALUES ($1, 'https://hooks.example.com/x', '{opportunity.opened}', $2::jsonb, $3) RETURNING id`;
    const plain = (await pool.query(insert, [org, JSON.stringify({ Authorization: 'Bearer plain' }), 'whsec_plain'])).rows[0].id;
    const sealedOld = (await pool.query(insert, [org, '{}', old.seal('whsec_old')])).rows[0].id;
    const rotated = { ...env, WEBHOOK_ENCRYPTION_KEYS: `${newKey},${oldKey}` };
    const r = await cli(['--json', 'webhooks', 'reseal'], rotated);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(r.stdout)).toEqual({ resealed: 2 });
    const now = new WebhookSecretBox({ encryptionKeys: newKey, encryptionKeyFile: '' });
    const rows = (await pool.query(`SELECT id, secret, headers FROM webhooks WHERE id = ANY($1) ORDER BY id`, [[plain, sealedOld]])).rows;
    expect(rows.map((w) => [now.open(w.secret), now.openHeaders(w.headers)])).toEqual([
      ['whsec_plain', { Authorization: 'Bearer plain' }],
      ['whsec_old', {}],
    ]);
    expect(JSON.parse((await cli(['--json', 'webhooks', 'reseal'], rotated)).stdout)).toEqual({ resealed: 0 });
    await pool.end();
  });

  it('projections rebuild answer_rollups --per-brand queues one {rollup-rebuilds} job per brand, once per feed head', async () => {
    expect((await cli(['--json', 'db', 'migrate'], env)).code).toBe(0);
    const prefix = testRedisPrefix();
    const queued = { ...env, REDIS_PREFIX: prefix };
    const pool = new Pool({ connectionString: db.url });
    const redis = new Redis('redis://127.0.0.1:6379');
    try {
      const [{ id: org }] = (await pool.query(`INSERT INTO organizations (name, tier) VALUES ('Rollups', 'standard') RETURNING id::int`)).rows;
      const [{ id: brand }] = (await pool.query(`INSERT INTO brands (organization_id, name, domain) VALUES ($1, 'R', 'r.example') RETURNING id::int`, [org])).rows;
      const first = await cli(['--json', 'projections', 'rebuild', 'answer_rollups', '--per-brand', '--brand', String(brand)], queued);
      expect(first).toMatchObject({ code: 0, stderr: '' });
      const out = JSON.parse(first.stdout);
      expect(out).toEqual({ projector: 'answer_rollups', queued: 1, jobIds: [expect.stringMatching(new RegExp(`^rollups-.+-brand-${brand}$`))] });
      const again = JSON.parse((await cli(['--json', 'projections', 'rebuild', 'answer_rollups', '--per-brand', '--brand', String(brand)], queued)).stdout);
      expect(again.jobIds).toEqual(out.jobIds);
      expect(await redis.llen(`${prefix}:bull:{rollup-rebuilds}:wait`)).toBe(1);
      expect(await redis.hget(`${prefix}:bull:{rollup-rebuilds}:${out.jobIds[0]}`, 'data')).toBe(JSON.stringify({ organizationId: org, brandId: brand, requestId: out.jobIds[0].slice('rollups-'.length, -`-brand-${brand}`.length) }));
      const wrong = await cli(['--json', 'projections', 'rebuild', 'event_type_counts', '--per-brand'], queued);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toMatch(/--per-brand rebuilds answer_rollups only/);
      expect((await cli(['--json', 'projections', 'rebuild', 'answer_rollups', '--brand', String(brand)], queued)).code).toBe(2);
    } finally {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
      await pool.end();
    }
  });

  it('a bad setting is a clear error on stderr and exit 1', async () => {
    const r = await cli(['--json', 'projections', 'status'], { DATABASE_URL: 'nonsense' });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^configuration error: DATABASE_URL/);
  });
});
