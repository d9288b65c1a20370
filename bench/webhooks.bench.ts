import 'reflect-metadata';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus } from 'node:os';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { Webhook } from 'standardwebhooks';
import { createDataSource } from '@libs/database';
import { EventSchemaRegistry, PostgresEventStore, type EventToAppend } from '@libs/event-store';
import { DEFAULT_SLA_POLICY, dueAt } from '@libs/opportunities';
import { TenancyRepository } from '@libs/tenancy';
import { webhooksRepositoryFor } from '@libs/webhooks';
import { percentile, round, withBenchDatabase } from './support/bench-database';
import { spawnScript } from './support/spawn-script';

/**
 * npm run bench:webhooks — prints one JSON line. A worker process (dispatcher projector, outbox
 * relay, BullMQ delivery processor) delivers opportunity.opened events fanned out to
 * BENCH_SUBSCRIPTIONS (5) subscriptions on a local receiver (which checks every 10th signature with
 * `standardwebhooks`):
 * - burst: BENCH_EVENTS (10,000) events appended at once → deliveries/s from the first append to
 *   the last receipt, and the append-to-receipt latency under that backlog;
 * - paced: BENCH_PACED_EVENTS (1,000) events at BENCH_PACED_RATE (100) events/s → append-to-receipt
 *   latency p50/p99 of a steady stream (the goal: p99 < 1 s).
 */
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 5);
const PACED_EVENTS = Number(process.env.BENCH_PACED_EVENTS ?? 1000);
const PACED_RATE = Number(process.env.BENCH_PACED_RATE ?? 100);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  await withBenchDatabase('webhooks', async (url) => {
    const ds = createDataSource(url, 4);
    await ds.initialize();
    const tenancy = new TenancyRepository(ds);
    const org = await tenancy.createOrganization('Bench', 'enterprise');
    const brand = await tenancy.createBrand({ organizationId: org.id, name: 'Bench', domain: 'bench.com' });
    const pool = new Pool({ connectionString: url, max: 4 });
    pool.on('error', () => undefined);
    const store = new PostgresEventStore({ pool, connectionString: url, registry: new EventSchemaRegistry() });

    // The receiver: when each delivery arrived, by webhook-id; every 10th signature verified.
    const appendedAt = new Map<number, number>();
    const receipts = new Map<string, { latency: number; at: number }>();
    const secrets = new Map<string, Webhook>();
    let checked = 0;
    let badSignatures = 0;
    let requests = 0;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const now = Date.now();
        requests++;
        const raw = Buffer.concat(chunks).toString('utf8');
        const id = String(req.headers['webhook-id']);
        if (requests % 10 === 0) {
          checked++;
          try {
            secrets.get(req.url ?? '')!.verify(raw, req.headers as Record<string, string>);
          } catch {
            badSignatures++;
          }
        }
        if (!receipts.has(id)) {
          const opp = Number(JSON.parse(raw).data.id);
          receipts.set(id, { latency: now - (appendedAt.get(opp) ?? now), at: now });
        }
        res.writeHead(204);
        res.end();
      });
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const webhooks = webhooksRepositoryFor(ds);
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      const w = await webhooks.create({ organizationId: org.id, clientId: null }, { url: `http://127.0.0.1:${port}/hook-${i}`, events: ['opportunity.opened'], description: null, headers: {}, isActive: true });
      secrets.set(`/hook-${i}`, new Webhook(w!.secret));
    }

    const worker: ChildProcess = spawnScript('apps/worker/src/main.ts', {
      DATABASE_URL: url, REDIS_PREFIX: `bench_${process.pid}_${randomUUID().slice(0, 6)}`, LOG_LEVEL: 'warn', WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_CONCURRENCY: process.env.WEBHOOK_CONCURRENCY ?? '100', PROJECTION_POLL_MS: '50', PROJECTION_BATCH_SIZE: '1000', WEBHOOK_RELAY_POLL_MS: '200',
    });
    try {
      // Ready when the dispatcher projector has taken its checkpoint.
      for (let i = 0; ; i++) {
        const [row] = await ds.query(`SELECT owner FROM projection_checkpoints WHERE name = 'webhook_deliveries'`);
        if (row?.owner) break;
        if (i > 600) throw new Error('the worker did not start');
        await sleep(100);
      }
      await sleep(500);

      let nextId = 1;
      const detected = (id: number): { streamId: string; events: EventToAppend[] } => {
        const at = new Date();
        return {
          streamId: `opportunity-${id}`,
          events: [{
            type: 'opportunity.detected',
            data: {
              id, organizationId: org.id, brandId: brand.id, type: 'sov_drop', severity: 'high', title: `Finding ${id}`, description: null, fingerprint: `bench-${id}`,
              source: 'bench', evidence: { n: id }, recurrenceOf: null, slaPolicy: 'default', dueAt: dueAt(at, 'high', DEFAULT_SLA_POLICY).toISOString(), detectedAt: at.toISOString(),
            },
            metadata: { organizationId: org.id, actor: 'bench', correlationId: 'bench' },
          }],
        };
      };
      const append = async (count: number) => {
        const items = Array.from({ length: count }, () => detected(nextId++));
        const started = Date.now();
        await store.appendToNewStreams(items);
        // The append's moment: when it was issued (its commit follows within the call).
        for (const it of items) appendedAt.set(Number(it.streamId.slice('opportunity-'.length)), started);
      };
      const waitFor = async (n: number, what: string) => {
        const deadline = Date.now() + 600_000;
        while (receipts.size < n) {
          if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${receipts.size}/${n}`);
          await sleep(20);
        }
      };

      // Burst.
      const burstStarted = Date.now();
      for (let done = 0; done < EVENTS; done += 500) await append(Math.min(500, EVENTS - done));
      const burstExpected = EVENTS * SUBSCRIPTIONS;
      await waitFor(burstExpected, 'the burst');
      const burstLast = Math.max(...[...receipts.values()].map((r) => r.at));
      const burstSeconds = (burstLast - burstStarted) / 1000;
      const burstLatencies = [...receipts.values()].map((r) => r.latency).sort((a, b) => a - b);

      // Paced.
      receipts.clear();
      const tickMs = 50;
      const perTick = Math.max(1, Math.round((PACED_RATE * tickMs) / 1000));
      const pacedStarted = Date.now();
      for (let sent = 0, tick = 0; sent < PACED_EVENTS; tick++) {
        const due = pacedStarted + tick * tickMs;
        if (due > Date.now()) await sleep(due - Date.now());
        const n = Math.min(perTick, PACED_EVENTS - sent);
        await append(n);
        sent += n;
      }
      await waitFor(PACED_EVENTS * SUBSCRIPTIONS, 'the paced stream');
      const paced = [...receipts.values()].map((r) => r.latency).sort((a, b) => a - b);

      const [{ n: recorded }] = await ds.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'succeeded'`);
      const result = {
        bench: 'webhooks',
        cores: cpus().length,
        subscriptions: SUBSCRIPTIONS,
        burstEvents: EVENTS,
        burstDeliveries: burstExpected,
        deliveriesPerSec: round(burstExpected / burstSeconds),
        burstLatencyMs: { p50: percentile(burstLatencies, 50), p99: percentile(burstLatencies, 99) },
        pacedEvents: PACED_EVENTS,
        pacedEventsPerSec: PACED_RATE,
        pacedDeliveriesPerSec: PACED_RATE * SUBSCRIPTIONS,
        latencyMs: { p50: percentile(paced, 50), p99: percentile(paced, 99), max: paced[paced.length - 1] },
        receiverRequests: requests,
        duplicates: requests - burstExpected - PACED_EVENTS * SUBSCRIPTIONS,
        recordedSucceeded: recorded,
        signaturesChecked: checked,
        badSignatures,
        goals: { deliveriesPerSec: 1000, latencyP99Ms: 1000 },
      };
      process.stdout.write(JSON.stringify(result) + '\n');
    } finally {
      worker.kill('SIGTERM');
      await new Promise((r) => worker.once('exit', r));
      server.closeAllConnections();
      server.close();
      await store.close();
      await pool.end().catch(() => undefined);
      await ds.destroy();
    }
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
