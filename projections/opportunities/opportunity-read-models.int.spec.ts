import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { projectorHarness, type GivenEvent, type ProjectorHarness } from '@libs/projection-engine/testing';
import { opportunityCountsProjector } from './opportunity-counts.projector';
import { opportunityOutcomesProjector } from './opportunity-outcomes.projector';
import { opportunitiesProjector } from './opportunities.projector';

let db: TestDatabase;
let organizationId: number;
let clientId: number;
let clientBrand: number;
let ownBrand: number;
const harnesses: ProjectorHarness[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  const h = projectorHarness(db.url, opportunitiesProjector);
  harnesses.push(h);
  [{ id: organizationId }] = await h.sql<{ id: number }>(`INSERT INTO organizations (name) VALUES ('Acme') RETURNING id::int`);
  [{ id: clientId }] = await h.sql<{ id: number }>(`INSERT INTO clients (organization_id, name) VALUES ($1, 'Client') RETURNING id::int`, [organizationId]);
  [{ id: clientBrand }] = await h.sql<{ id: number }>(`INSERT INTO brands (organization_id, client_id, name, domain) VALUES ($1, $2, 'B1', 'b1.example') RETURNING id::int`, [organizationId, clientId]);
  [{ id: ownBrand }] = await h.sql<{ id: number }>(`INSERT INTO brands (organization_id, name, domain) VALUES ($1, 'B2', 'b2.example') RETURNING id::int`, [organizationId]);
});
afterAll(async () => {
  for (const h of harnesses) await h.close();
  await db?.drop();
});

const detected = (id: number, brandId: number, severity = 'high'): GivenEvent => ({
  type: 'opportunity.detected',
  streamId: `opportunity-${id}`,
  data: {
    id, organizationId, brandId, type: 'sov_drop', severity, title: `O${id}`, description: null, fingerprint: `f${id}`, source: 'api', evidence: {},
    recurrenceOf: null, slaPolicy: 'default', dueAt: '2025-01-03T10:15:00.000Z', detectedAt: '2025-01-01T00:00:00.000Z',
  },
});
const moved = (id: number, from: string, to: string): GivenEvent => ({
  type: 'opportunity.transitioned',
  streamId: `opportunity-${id}`,
  data: { from, to, reason: null, owner: null, at: '2025-01-02T00:00:00.000Z' },
});
const lifecycleToResolved = (id: number) =>
  [['detected', 'triaged'], ['triaged', 'assigned'], ['assigned', 'in_progress'], ['in_progress', 'fix_deployed'], ['fix_deployed', 'verifying'], ['verifying', 'resolved']].map(([f, t]) => moved(id, f, t));

describe('opportunity read models carry organisation, client and brand ids', () => {
  it('opportunities and the list totals: the brand’s client on every row, the totals follow each move', async () => {
    const h = harnesses[0];
    await h.given([detected(1, clientBrand), detected(2, ownBrand)]);
    await h.given([moved(1, 'detected', 'triaged')]);
    expect(await h.rows('opportunities', 'id', 'id::int, organization_id::int, client_id::int, brand_id::int, status, version')).toEqual([
      { id: 1, organization_id: organizationId, client_id: clientId, brand_id: clientBrand, status: 'triaged', version: 1 },
      { id: 2, organization_id: organizationId, client_id: null, brand_id: ownBrand, status: 'detected', version: 0 },
    ]);
    expect(await h.rows('opportunity_list_counts', 'client_id, status', 'client_id::int, brand_id::int, status, count::int')).toEqual([
      { client_id: 0, brand_id: ownBrand, status: 'detected', count: 1 },
      { client_id: clientId, brand_id: clientBrand, status: 'detected', count: 0 },
      { client_id: clientId, brand_id: clientBrand, status: 'triaged', count: 1 },
    ]);
  });

  it('counts and due buckets: by status and severity, open ones in their UTC buckets until they close', async () => {
    const h = projectorHarness(db.url, opportunityCountsProjector);
    harnesses.push(h);
    await h.given([detected(11, clientBrand, 'critical'), detected(12, ownBrand, 'low')]);
    await h.given([moved(11, 'detected', 'dismissed'), moved(11, 'detected', 'dismissed')]); // the repeat is ignored
    expect(await h.rows('opportunity_counts', 'brand_id, status', 'client_id::int, brand_id::int, status, severity, count::int')).toEqual(
      [
        { client_id: clientId, brand_id: clientBrand, status: 'detected', severity: 'critical', count: 0 },
        { client_id: clientId, brand_id: clientBrand, status: 'dismissed', severity: 'critical', count: 1 },
        { client_id: null, brand_id: ownBrand, status: 'detected', severity: 'low', count: 1 },
      ].sort((a, b) => a.brand_id - b.brand_id || a.status.localeCompare(b.status)),
    );
    expect(await h.rows('opportunity_due_buckets', 'brand_id, span', `client_id::int, brand_id::int, span, to_char(bucket_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS start, count::int`)).toEqual(
      [
        ...['10min', 'day', 'hour', 'month'].map((span) => ({ client_id: clientId, brand_id: clientBrand, span, count: 0 })),
        ...['10min', 'day', 'hour', 'month'].map((span) => ({ client_id: null, brand_id: ownBrand, span, count: 1 })),
      ]
        .sort((a, b) => a.brand_id - b.brand_id)
        .map((r) => ({ ...r, start: { '10min': '2025-01-03T10:10', day: '2025-01-03T00:00', hour: '2025-01-03T10:00', month: '2025-01-01T00:00' }[r.span] })),
    );
  });

  it('outcomes: a resolved opportunity’s row carries its client, and its finalised figures', async () => {
    const h = projectorHarness(db.url, opportunityOutcomesProjector);
    harnesses.push(h);
    await h.given([detected(21, clientBrand), ...lifecycleToResolved(21)]);
    await h.given([
      {
        type: 'opportunity.outcome_finalized',
        streamId: 'opportunity-21',
        data: { citationRateBefore: 0.1, citationRateAfter: 0.3, aiTrafficBefore: 10, aiTrafficAfter: 30, conversions: 2, revenue: 50, currency: 'EUR', finalizedAt: '2025-02-01T00:00:00.000Z' },
      },
    ]);
    expect(await h.rows('opportunity_outcomes', 'opportunity_id', 'opportunity_id::int, client_id::int, brand_id::int, resolved_at, citation_rate_after, revenue, currency')).toEqual([
      { opportunity_id: 21, client_id: clientId, brand_id: clientBrand, resolved_at: new Date('2025-01-02T00:00:00.000Z'), citation_rate_after: 0.3, revenue: 50, currency: 'EUR' },
    ]);
  });

  it('an event whose data does not fit its type stops the batch (typed decoding), leaving no row', async () => {
    const h = projectorHarness(db.url, opportunitiesProjector);
    harnesses.push(h);
    const broken = detected(31, ownBrand);
    delete (broken.data as Record<string, unknown>).dueAt;
    await expect(h.given([broken])).rejects.toThrow('opportunity.detected: dueAt is missing');
    expect(await h.rows('opportunities', 'id', 'id::int')).not.toContainEqual({ id: 31 });
  });
});
