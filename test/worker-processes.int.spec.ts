import { createServer, type AddressInfo, type Socket } from 'node:net';
import { Client, Pool } from 'pg';
import { EventSchemaRegistry, ExpectedRevision, PostgresEventStore } from '@libs/event-store';
import { createTestDatabase, testRedisPrefix, type TestDatabase } from './support/test-database';
import { exited, startApp, until } from './support/processes';

/** Real worker processes against a real database: crash safety and single ownership of a projector. */
let db: TestDatabase;
let store: PostgresEventStore;
let sql: Client;

beforeAll(async () => {
  db = await createTestDatabase();
  store = new PostgresEventStore({ pool: new Pool({ connectionString: db.url, max: 10 }), ownsPool: true, connectionString: db.url, registry: new EventSchemaRegistry() });
  sql = new Client({ connectionString: db.url });
  await sql.connect();
});
afterAll(async () => {
  await sql?.end();
  await store?.close();
  await db?.drop();
});

const env = () => ({ DATABASE_URL: db.url, REDIS_PREFIX: testRedisPrefix(), PROJECTION_BATCH_SIZE: '200', PROJECTION_POLL_MS: '50' });

async function appendEvents(total: number): Promise<void> {
  const perCall = 100;
  for (let i = 0; i < total; i += perCall) {
    await store.appendToStream(`load-${i % 37}`, Array.from({ length: perCall }, (_, k) => ({ type: `t${(i + k) % 5}`, data: { i: i + k } })), ExpectedRevision.any);
  }
}

async function projected(): Promise<number> {
  const r = await sql.query<{ n: string | null }>('SELECT sum(count)::text AS n FROM event_type_counts');
  return Number(r.rows[0].n ?? 0);
}

async function stored(): Promise<number> {
  return Number((await sql.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0].n);
}

async function owner(): Promise<string | null> {
  const r = await sql.query<{ owner: string | null }>(`SELECT owner FROM projection_checkpoints WHERE name = 'event_type_counts'`);
  return r.rows[0]?.owner ?? null;
}

/** Every unit of work is owned, by the two workers, half each (units / 2 rounded up or down). */
async function balanced(pids: string[]): Promise<boolean> {
  const r = await sql.query<{ pid: string | null; n: number }>(`SELECT split_part(owner, ':', 2) AS pid, count(*)::int AS n FROM projection_shard_owners GROUP BY 1`);
  const units = r.rows.reduce((sum, row) => sum + row.n, 0);
  const held = pids.map((pid) => r.rows.find((row) => row.pid === pid)?.n ?? 0);
  return units > 0 && held[0] + held[1] === units && Math.abs(held[0] - held[1]) <= 1;
}

describe('worker processes', () => {
  it('a projector killed with SIGKILL mid-batch and restarted ends with counts equal to the event store', async () => {
    await appendEvents(30_000);
    for (let round = 0; round < 4; round++) {
      const worker = startApp('worker', env());
      // Let it get into its batches, then kill it without warning.
      await until(async () => (await projected()) > round * 5000, 30_000, `worker progress in round ${round}`);
      await new Promise((r) => setTimeout(r, 50 + Math.floor(Math.random() * 200)));
      worker.kill('SIGKILL');
      await exited(worker);
      if (round === 1) await appendEvents(5_000);
    }
    expect(await projected()).toBeLessThanOrEqual(await stored());
    const worker = startApp('worker', env());
    await until(async () => (await projected()) === (await stored()), 60_000, 'the restarted worker to catch up');
    const types = await sql.query(`SELECT type, count::text FROM event_type_counts ORDER BY type`);
    const truth = await sql.query(`SELECT type, count(*)::text AS count FROM events GROUP BY type ORDER BY type`);
    expect(types.rows).toEqual(truth.rows);
    const cp = await sql.query<{ events_applied: string }>(`SELECT events_applied FROM projection_checkpoints WHERE name = 'event_type_counts'`);
    expect(Number(cp.rows[0].events_applied)).toBe(await stored());
    worker.kill('SIGTERM');
    expect(await exited(worker)).toBe(0);
  });

  it.each(['worker', 'api'] as const)('%s: a process stopped while it is still starting closes cleanly and exits 0 (signals are handled from the start)', async (app) => {
    // A database that takes connections and never answers: the process's start waits on it, in its main function.
    const waiting = new Set<Socket>();
    const silent = createServer((socket) => waiting.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const child = startApp(app, { ...env(), DATABASE_URL: `postgres://postgres@127.0.0.1:${(silent.address() as AddressInfo).port}/none` });
      await until(async () => waiting.size > 0, 30_000, `the ${app} to reach its database`);
      child.kill('SIGTERM');
      expect(await exited(child)).toBe(0);
      expect(child.signalCode).toBeNull();
    } finally {
      for (const socket of waiting) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('two workers started at once: the projector runs in exactly one, and the other takes over when it dies', async () => {
    const a = startApp('worker', env());
    const b = startApp('worker', env());
    const pids = [String(a.pid), String(b.pid)];
    const ownerPid = async () => ((await owner()) ?? '').split(':')[1];
    await until(async () => pids.includes(await ownerPid()), 30_000, 'an owner');
    // The worker that came up first may take every unit, and gives half back once it counts the other
    // (a worker that joins takes its share): the shares are settled when each worker holds half the units.
    await until(async () => balanced(pids), 30_000, 'the units shared between the two workers');
    const first = await ownerPid();
    await appendEvents(3_000);
    await until(async () => (await projected()) === (await stored()), 30_000, 'catch-up');
    // Ownership never moved while both lived, once their shares were settled.
    expect(await ownerPid()).toBe(first);
    const [holder, other] = first === String(a.pid) ? [a, b] : [b, a];
    expect(other.exitCode).toBeNull();
    holder.kill('SIGKILL');
    await exited(holder);
    await until(async () => (await ownerPid()) === String(other.pid), 30_000, 'the other worker to take over');
    await appendEvents(2_000);
    await until(async () => (await projected()) === (await stored()), 30_000, 'catch-up after take-over');
    other.kill('SIGTERM');
    expect(await exited(other)).toBe(0);
  });
});
