import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { cpus } from 'node:os';
import { Pool } from 'pg';
import { createDataSource } from '@libs/database';
import { EventSchemaRegistry, ExpectedRevision, PostgresEventStore, START } from '@libs/event-store';
import { ProjectionRebuilder } from '@libs/projection-engine';
import { eventTypeCountsProjector } from '@projections';
import { round, withBenchDatabase } from './support/bench-database';

/**
 * npm run bench:event-store — prints one JSON line:
 * - single-event appends/s from 32 concurrent writers to distinct streams, against 32 concurrent
 *   plain single-row INSERTs into a table of the same width, measured in the same run;
 * - catch-up read of 1,000,000 events (events/s);
 * - rebuild of the per-type counts projector over those 1,000,000 events (events/s).
 * BENCH_EVENTS and BENCH_SECONDS shrink it for a quick look.
 */
const WRITERS = 32;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const DATA = JSON.stringify({ opportunityId: 123456, brandId: 42, status: 'triaged', reason: 'bench' });
const META = JSON.stringify({ organizationId: 7, actor: 'key:1', correlationId: '9f1c2d3e-0000-4000-8000-000000000000', schemaVersion: 1 });

async function forDuration(writers: number, seconds: number, op: (writer: number, i: number) => Promise<void>): Promise<number> {
  const until = Date.now() + seconds * 1000;
  let count = 0;
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; Date.now() < until; i++) {
        await op(w, i);
        count++;
      }
    }),
  );
  return count / seconds;
}

async function main(): Promise<void> {
  await withBenchDatabase('event_store', async (url) => {
    const pool = new Pool({ connectionString: url, max: WRITERS + 4 });
    pool.on('error', () => undefined);
    const store = new PostgresEventStore({ pool, connectionString: url, registry: new EventSchemaRegistry() });
    // The baseline: a table of the same width as `events`, plain INSERTs.
    await pool.query(`CREATE TABLE baseline_events (LIKE events INCLUDING DEFAULTS INCLUDING IDENTITY)`);
    await pool.query(`ALTER TABLE baseline_events ADD PRIMARY KEY (global_position)`);
    const warm = async (op: (w: number, i: number) => Promise<void>) => forDuration(WRITERS, 1, op);
    // Prepared like the store's appends, with the same parameters (the event id made by the client).
    const baselineOp = async (w: number, i: number) => {
      await pool.query({
        name: 'baseline_insert',
        text: `INSERT INTO baseline_events (stream_id, stream_position, event_id, type, schema_version, data, metadata)
               VALUES ($1, $2, $3, 'opportunity.triaged', 1, $4, $5)`,
        values: [`b-${w}`, i, randomUUID(), DATA, META],
      });
    };
    const revisions = new Map<number, bigint>();
    const appendOp = async (w: number) => {
      const rev = revisions.get(w);
      const r = await store.appendToStream(
        `opportunity-${w}`,
        [{ type: 'opportunity.triaged', data: JSON.parse(DATA), metadata: JSON.parse(META) }],
        rev === undefined ? ExpectedRevision.noStream : ExpectedRevision.exact(rev),
      );
      revisions.set(w, r.nextExpectedRevision);
    };
    await warm(baselineOp);
    await warm(appendOp);
    // Alternate the two sides so neither benefits from running second.
    const baseline1 = await forDuration(WRITERS, SECONDS / 2, baselineOp);
    const appends1 = await forDuration(WRITERS, SECONDS / 2, appendOp);
    const appends2 = await forDuration(WRITERS, SECONDS / 2, appendOp);
    const baseline2 = await forDuration(WRITERS, SECONDS / 2, baselineOp);
    const baselinePerSec = (baseline1 + baseline2) / 2;
    const appendsPerSec = (appends1 + appends2) / 2;

    // Seed the feed to EVENTS events in bulk, as appends would have written them (5 types, 10 events a stream).
    await pool.query(`TRUNCATE events, event_streams`);
    const chunk = 200_000;
    for (let from = 0; from < EVENTS; from += chunk) {
      const to = Math.min(EVENTS, from + chunk) - 1;
      await pool.query(
        `INSERT INTO events (stream_id, stream_position, event_id, type, data, metadata)
         SELECT 'opportunity-' || (g / 10), g % 10, gen_random_uuid(), 'opportunity.' || (ARRAY['detected','triaged','assigned','resolved','dismissed'])[1 + g % 5], $3::jsonb, $4::jsonb
         FROM generate_series($1::int, $2::int) g`,
        [from, to, DATA, META],
      );
    }
    await pool.query(`INSERT INTO event_streams SELECT stream_id, max(stream_position) FROM events GROUP BY stream_id`);
    await pool.query(`VACUUM ANALYZE events`);

    // Catch-up as a projector does it: a subscription from the start until it reports caught up.
    let read = 0;
    const readStarted = process.hrtime.bigint();
    await new Promise<void>((resolve, reject) => {
      const sub = store.subscribeToAll({
        after: START,
        batchSize: 5000,
        onBatch: async (events) => {
          read += events.length;
        },
        onCaughtUp: () => void sub.stop().then(resolve),
        onError: reject,
      });
    });
    const readSeconds = Number(process.hrtime.bigint() - readStarted) / 1e9;

    const ds = createDataSource(url, 4);
    await ds.initialize();
    const rebuild = await new ProjectionRebuilder(ds, store, 5000).rebuild(eventTypeCountsProjector);
    const [{ total }] = await ds.query(`SELECT sum(count)::int AS total FROM event_type_counts`);
    if (Number(total) !== EVENTS || read !== EVENTS) throw new Error(`bench invariant broken: read ${read}, projected ${total}, expected ${EVENTS}`);
    await ds.destroy();
    await store.close();
    await pool.end();

    const result = {
      bench: 'event-store',
      cores: cpus().length,
      writers: WRITERS,
      appendsPerSec: round(appendsPerSec),
      baselineInsertsPerSec: round(baselinePerSec),
      appendToBaselineRatio: round(appendsPerSec / baselinePerSec, 3),
      catchUpEvents: read,
      catchUpEventsPerSec: round(read / readSeconds),
      rebuildEvents: rebuild.eventsRead,
      rebuildEventsPerSec: rebuild.eventsPerSecond,
      goals: { appendToBaselineRatio: 0.5, catchUpEventsPerSec: 100_000, rebuildEventsPerSec: 30_000 },
    };
    process.stdout.write(JSON.stringify(result) + '\n');
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
