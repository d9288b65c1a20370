import { Pool } from 'pg';
import { createDataSource } from '@libs/database';
import { EventSchemaRegistry, PostgresEventStore } from '@libs/event-store';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database';
import { OpportunityRuleError, type OpportunityState } from './domain';
import { OpportunityRepository } from './opportunity.repository';
import { columnList } from '@libs/projection-engine';
import { OPPORTUNITIES, opportunityRowToSql } from './read-model/opportunity-row';

/**
 * A command may start from the list projection's row instead of the stream; these tests put a row
 * that is behind the stream in place (no projector runs here) and check that every decision is
 * still made and recorded against the stream's latest state.
 */
let db: TestDatabase;
let pool: Pool;
let store: PostgresEventStore;
let repository: OpportunityRepository;
let ds: ReturnType<typeof createDataSource>;
const meta = { organizationId: 1, actor: 'test', correlationId: 'c' };

beforeAll(async () => {
  db = await createTestDatabase();
  ds = createDataSource(db.url, 2);
  await ds.initialize();
  pool = new Pool({ connectionString: db.url, max: 2 });
  store = new PostgresEventStore({ pool, connectionString: db.url, registry: new EventSchemaRegistry() });
  repository = new OpportunityRepository(store, ds);
});

afterAll(async () => {
  await store.close();
  await pool.end();
  await ds.destroy();
  await db.drop();
});

/** Writes the projection's row for a state, as the projector would have at that version. */
async function projectRow(state: OpportunityState): Promise<void> {
  const row = opportunityRowToSql({ state, clientId: null });
  const names = columnList(OPPORTUNITIES);
  await ds.query(`DELETE FROM opportunities WHERE id = $1`, [state.id]);
  await ds.query(`INSERT INTO opportunities (${names}) SELECT ${names} FROM jsonb_populate_record(NULL::opportunities, $1::jsonb)`, [
    JSON.stringify(row),
  ]);
}

async function detect(): Promise<OpportunityState> {
  const id = await repository.nextId();
  const r = await repository.execute(id, () => ({ kind: 'detect', id, organizationId: 1, brandId: 1, type: 'crawl_block', severity: 'low', title: `t${id}`, fingerprint: `f${id}`, source: 'test', now: new Date() }), meta);
  return r.state;
}

const transition = async (id: number, toStatus: 'triaged' | 'assigned' | 'in_progress' | 'dismissed', owner: string | null = null) =>
  repository.execute(id, () => ({ kind: 'transition', toStatus, owner, reason: null, now: new Date() }), meta, await repository.loadForDecision(id));

describe('deciding from a projected row', () => {
  it('reads the row when there is one, and the stream when there is none', async () => {
    const fresh = await detect();
    expect(await repository.loadForDecision(fresh.id)).toEqual({ state: fresh, revision: 0, source: 'stream' });
    await projectRow(fresh);
    const loaded = await repository.loadForDecision(fresh.id);
    expect(loaded.source).toBe('projection');
    expect(loaded.state).toMatchObject({ id: fresh.id, status: 'detected', version: 0 });
    expect(loaded.revision).toBe(0);
  });

  it('a move the stale row forbids but the stream allows is decided on the stream', async () => {
    const v0 = await detect();
    await projectRow(v0); // the row stays at detected (v0)
    await transition(v0.id, 'assigned', 'ana'); // the stream moves on (v1)
    // detected → in_progress breaks the lifecycle; assigned → in_progress does not.
    const r = await transition(v0.id, 'in_progress');
    expect(r.state).toMatchObject({ status: 'in_progress', owner: 'ana', version: 2 });
    expect((await repository.history(v0.id)).map((e) => e.data.to ?? null)).toEqual([null, 'assigned', 'in_progress']);
  });

  it('a move both allow is refused at append (revision) and decided again on the stream', async () => {
    const v0 = await detect();
    await projectRow(v0);
    await transition(v0.id, 'triaged');
    const r = await transition(v0.id, 'dismissed');
    expect(r.state).toMatchObject({ status: 'dismissed', version: 2 });
    expect((await repository.history(v0.id)).map((e) => [e.streamPosition, e.data.from ?? null])).toEqual([
      [0n, null],
      [1n, 'detected'],
      [2n, 'triaged'],
    ]);
  });

  it('a move the stream forbids is refused with the stream\'s state', async () => {
    const v0 = await detect();
    await projectRow(v0);
    await transition(v0.id, 'dismissed'); // terminal on the stream
    const refused = await transition(v0.id, 'triaged').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpportunityRuleError);
    expect(refused).toMatchObject({ details: { from: 'dismissed' } });
    expect(await repository.history(v0.id)).toHaveLength(2);
  });
});
