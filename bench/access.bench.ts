import 'reflect-metadata';
import { fork, type ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { createApiApp } from '../apps/api/src/create-api-app';
import { ALL_SCOPES, ApiKeysRepository } from '@libs/auth';
import { createDataSource } from '@libs/database';
import { TenancyRepository } from '@libs/tenancy';
import { round, withBenchDatabase } from './support/bench-database';
import { loadServiceConfig } from '../apps/composition/config';

/**
 * npm run bench:access — prints one JSON line: requests/s and p99 latency of
 * POST /api/v1/validate-key (authentication, scope, rate limit and usage all active) against
 * GET /health, both served by the same API process in the same run, 50 connections, autocannon.
 * The API runs in a child process (its own event loop and core); this process generates load.
 * The two sides alternate (health, validate, validate, health) so neither gains from going
 * second. The key's tier is given limits that do not bite (RATE_LIMIT_TIERS), so every request
 * does the full rate-limit work and is accepted. The server logs at `warn` (per-request info
 * lines would only measure pino). BENCH_SECONDS sets each round's length, BENCH_CYCLES the
 * number of health/validate/validate/health cycles; BENCH_PROFILE=<dir> writes a CPU profile of
 * the server, BENCH_SERVER_STDOUT=1 shows its output.
 */
const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CYCLES = Number(process.env.BENCH_CYCLES ?? 2);
const ROLE = 'BENCH_ACCESS_ROLE';

interface Round {
  rps: number;
  p99: number;
  errors: number;
}

/** The child: the API, listening on 127.0.0.1 on a free port, reported to the parent. */
async function serve(): Promise<void> {
  const config = loadServiceConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1' });
  const app = await createApiApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
  process.on('message', (m) => {
    if (m === 'stop') void app.close().then(() => process.exit(0));
  });
}

function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(__filename, [], { execArgv: ['-r', '@swc-node/register', ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [])], env: { ...process.env, ...env, [ROLE]: 'server' }, stdio: ['ignore', process.env.BENCH_SERVER_STDOUT ? 'inherit' : 'ignore', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve({ child, port: m.port }));
    child.once('exit', (code) => reject(new Error(`the API process exited with ${code}`)));
  });
}

async function load(url: string, seconds: number, opts: { method?: 'GET' | 'POST'; headers?: Record<string, string> } = {}): Promise<Round> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: seconds, method: opts.method ?? 'GET', headers: opts.headers });
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.non2xx + r.errors + r.timeouts };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

async function main(): Promise<void> {
  await withBenchDatabase('access', async (databaseUrl) => {
    const ds = createDataSource(databaseUrl, 2);
    await ds.initialize();
    const org = await new TenancyRepository(ds).createOrganization('Bench', 'enterprise');
    const { key } = await new ApiKeysRepository(ds).create({ organizationId: org.id, scopes: [...ALL_SCOPES], tier: 'enterprise' });
    await ds.destroy();

    const prefix = `aov_bench_access_${process.pid}`;
    const { child, port } = await startServer({
      DATABASE_URL: databaseUrl,
      REDIS_PREFIX: prefix,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_TIERS: JSON.stringify({ enterprise: { perMinute: 100_000_000, perDay: 1_000_000_000, burst: 0 } }),
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      const health = (s: number) => load(`${base}/health`, s);
      const validate = (s: number) => load(`${base}/api/v1/validate-key`, s, { method: 'POST', headers: { 'x-api-key': key } });
      await health(2);
      await validate(2);
      // health, validate, validate, health — twice: each side runs first and last equally often.
      const rounds: { health: Round[]; validate: Round[] } = { health: [], validate: [] };
      for (let cycle = 0; cycle < CYCLES; cycle++) {
        rounds.health.push(await health(SECONDS));
        rounds.validate.push(await validate(SECONDS));
        rounds.validate.push(await validate(SECONDS));
        rounds.health.push(await health(SECONDS));
      }
      const errors = [...rounds.health, ...rounds.validate].reduce((n, r) => n + r.errors, 0);
      if (errors) throw new Error(`${errors} requests failed or were refused during the measurement`);
      const mean = (rs: Round[], f: (r: Round) => number) => rs.reduce((s, r) => s + f(r), 0) / rs.length;
      const healthRps = mean(rounds.health, (r) => r.rps);
      const validateRps = mean(rounds.validate, (r) => r.rps);
      const result = {
        bench: 'access',
        cores: cpus().length,
        connections: CONNECTIONS,
        secondsPerRound: SECONDS,
        rounds: CYCLES * 2,
        validateKeyRps: round(validateRps),
        healthRps: round(healthRps),
        ratio: round(validateRps / healthRps, 3),
        // The median round's p99 (one round disturbed by a neighbour on the machine does not decide it).
        validateKeyP99Ms: median(rounds.validate.map((r) => r.p99)),
        healthP99Ms: median(rounds.health.map((r) => r.p99)),
        validateKeyP99MsWorstRound: Math.max(...rounds.validate.map((r) => r.p99)),
        goals: { ratio: 0.7, validateKeyP99Ms: 15 },
      };
      process.stdout.write(JSON.stringify(result) + '\n');
    } finally {
      child.send('stop');
      await new Promise((r) => child.once('exit', r));
      const redis = new Redis(loadServiceConfig(process.env).redisUrl);
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
        if (keys.length) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
      redis.disconnect();
    }
  });
}

const run = process.env[ROLE] === 'server' ? serve : main;
run().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
