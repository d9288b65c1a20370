import { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database';
import { createDataSource } from '@libs/database';
import { EventSchemaRegistry, ExpectedRevision, PostgresEventStore, WrongExpectedRevisionError, type RecordedEvent } from '@libs/event-store';
import { checkpoints } from './checkpoint-store';
import { ProjectorRunner } from './projector-runner';
import type { Reactor } from './projector';
import { until } from '../../../test/support/until';

let db: TestDatabase;
let ds: DataSource;
let store: PostgresEventStore;

beforeAll(async () => {
  db = await createTestDatabase();
  ds = createDataSource(db.url, 6);
  await ds.initialize();
  store = new PostgresEventStore({ pool: new Pool({ connectionString: db.url, max: 10 }), ownsPool: true, connectionString: db.url, registry: new EventSchemaRegistry(), pollIntervalMs: 50 });
});
afterAll(async () => {
  await store?.close();
  await ds?.destroy();
  await db?.drop();
});


/**
 * "When an order is placed, issue its invoice": the command is idempotent (the invoice stream
 * must not exist yet), so a batch given again changes nothing. `failAfterEffects` crashes the
 * reaction once after its commands ran and before the checkpoint: the at-least-once case.
 */
function invoicing(failAfterEffects: number) {
  let failures = failAfterEffects;
  const calls: string[] = [];
  const reactor: Reactor = {
    name: 'invoicing',
    handles: ['order.placed'],
    async react(events: readonly RecordedEvent[]) {
      for (const e of events) {
        calls.push(e.streamId);
        try {
          await store.appendToStream(`invoice-${e.data.orderId}`, [{ type: 'invoice.issued', data: { orderId: e.data.orderId } }], ExpectedRevision.noStream);
        } catch (error) {
          if (!(error instanceof WrongExpectedRevisionError)) throw error; // issued already: nothing to do
        }
      }
      if (failures > 0) {
        failures--;
        throw new Error('crashed before the checkpoint');
      }
    },
  };
  return { reactor, calls };
}

const invoices = async () => (await ds.query(`SELECT stream_id FROM events WHERE type = 'invoice.issued' ORDER BY stream_id`)).map((r: { stream_id: string }) => r.stream_id);

describe('reactors', () => {
  it('react to each event at least once, their idempotent commands take effect once, the checkpoint follows', async () => {
    for (let i = 1; i <= 5; i++) await store.appendToStream(`order-${i}`, [{ type: 'order.placed', data: { orderId: i } }, { type: 'order.noted', data: {} }], ExpectedRevision.noStream);
    // The readable head can lag behind our appends while another test file's transaction is open in
    // the cluster: the first batch must hold all five orders for "the batch was given three times".
    const newest = await store.newestPosition();
    await until(async () => (await store.headPosition()).commit >= newest.commit);
    const { reactor, calls } = invoicing(2);
    const errors: unknown[] = [];
    const runner = new ProjectorRunner(ds, store, reactor, { batchSize: 100, lockRetryMs: 50, onError: (_, e) => errors.push(e) });
    runner.start();
    try {
      await until(async () => (await checkpoints.get(ds.manager, 'invoicing'))?.eventsApplied === 5);
      expect(errors).toHaveLength(2); // the batch was given three times
      expect(calls.length).toBe(15);
      expect(await invoices()).toEqual(['invoice-1', 'invoice-2', 'invoice-3', 'invoice-4', 'invoice-5']);

      // Later events are reacted to once; the invoices it appended are not its events.
      await store.appendToStream('order-6', [{ type: 'order.placed', data: { orderId: 6 } }], ExpectedRevision.noStream);
      await until(async () => (await checkpoints.get(ds.manager, 'invoicing'))?.eventsApplied === 6);
      expect(calls.slice(15)).toEqual(['order-6']);
      expect(await invoices()).toHaveLength(6);
    } finally {
      await runner.stop();
    }
  });
});
