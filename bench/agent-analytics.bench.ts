import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Pool } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { DataSource } from 'typeorm';
import { ALL_SCOPES, ApiKeysRepository } from '@libs/auth';
import { AGENT_ANALYTICS_CONFIG, binaryCopyData, BOT_VISIT_COLUMNS, BotClassifier, logParser, partitionName, VisitStore, type BotVisitRow } from '@libs/agent-analytics';
import { loadConfig, sectionOf } from '@libs/config';
import { createDataSource } from '@libs/database';
import { addDays, utcDay } from '@libs/metrics';
import { TenancyRepository } from '@libs/tenancy';
import { round, withBenchDatabase } from './support/bench-database';
import { serverEnv } from './support/answer-history';
import { compare, serverPorts, startServer } from './support/http-load';
import { ROOT } from './support/spawn-script';

/**
 * npm run bench:agent-analytics — prints one JSON line:
 * - `cli logs ingest` of a generated nginx log of BENCH_LINES (2,000,000) lines for each mix of
 *   BENCH_BOT_SHARE (a comma list of shares of lines from catalogue agents, all stored; default 0.1,0.4):
 *   AI agents are 10 % of the lines (all of the share below that), search crawlers (Googlebot,
 *   bingbot, Applebot) the rest of the share, people (from 20,000 addresses) and other bots the other
 *   lines. Per mix: lines/s end to end into PostgreSQL (the CLI's own figure, from the first byte read
 *   to the last batch committed, and the wall time with the process start), the CLI's peak RSS, and
 *   a bare COPY of the same rows already parsed and encoded (binary, as the CLI sends them; lines/s:
 *   lines / COPY seconds). The CLI runs as the image runs it (`node dist/apps/cli/src/main.js`, built
 *   here first by `npm run build`), and again as `npm run cli` runs it in a checkout (`dev`:
 *   TypeScript compiled as it loads by @swc-node/register, whose compiler alone holds about 80 MB).
 *   Where `goaccess` is installed, it parses and reports the same file in the same run
 *   (`--log-format=COMBINED`, an HTML report): its wall time, its peak RSS and the ratio of its time
 *   to the CLI's (1 or more: the CLI is at least as fast). The tables are emptied before each of
 *   these writes, so every run writes alike;
 * - POST /ingest with 10,000-entry batches from 8 clients (BENCH_POST_BATCHES, 40, in all): entries/s;
 * - overview, bots, pages, trends over 30 days of rollups seeded for BENCH_VISITS (50,000,000)
 *   visits of one organisation and a day of raw rows (BENCH_RAW_ROWS, 200,000), at 50 connections
 *   against a bare Fastify + pg server running the same SQL (BENCH_SECONDS each side, 8).
 */
const LINES = Number(process.env.BENCH_LINES ?? 2_000_000);
const SHARES = (process.env.BENCH_BOT_SHARE ?? '0.1,0.4').split(',').map((s) => Number(s.trim()));
if (SHARES.some((s) => !(s >= 0 && s <= 1))) throw new Error('BENCH_BOT_SHARE must be a comma list of shares from 0 to 1');
/** Which parts run (BENCH_PARTS, a comma list of logs, post, reads; default all): the others are left out of the line. */
const PARTS = new Set((process.env.BENCH_PARTS ?? 'logs,post,reads').split(',').map((s) => s.trim()));
/**
 * BENCH_CLI_ORDER: which form of the CLI ingests each log first (dist,dev by default, or dev,dist).
 * The first run after the log is written is often the faster one, whichever form it is.
 */
const CLI_ORDER = (process.env.BENCH_CLI_ORDER ?? 'dist,dev').split(',').map((s) => s.trim()) as ('dist' | 'dev')[];
if (CLI_ORDER.length !== 2 || !CLI_ORDER.includes('dist') || !CLI_ORDER.includes('dev')) throw new Error('BENCH_CLI_ORDER must be dist,dev or dev,dist');
/** BENCH_CLI_PROFILE=<dir>: the built CLI writes a CPU profile of each ingest there (`node --cpu-prof`). */
const CLI_PROFILE = process.env.BENCH_CLI_PROFILE;
const POST_BATCHES = Number(process.env.BENCH_POST_BATCHES ?? 40);
const VISITS = Number(process.env.BENCH_VISITS ?? 50_000_000);
const RAW_ROWS = Number(process.env.BENCH_RAW_ROWS ?? 200_000);
const PAGES = Number(process.env.BENCH_PAGES ?? 2000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const AGENTS = [
  ['20.171.206.', 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)'],
  ['74.7.228.', 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot'],
  ['203.0.113.', 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)'],
  ['198.51.100.', 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)'],
  ['192.0.2.', 'meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)'],
];
const SEARCH_CRAWLERS = [
  ['66.249.66.', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
  ['157.55.39.', 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)'],
  ['17.58.101.', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)'],
];
const OTHERS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)',
  'Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
];

/** People come from PEOPLE addresses (a site's visitors return; GoAccess's time and memory grow with the distinct ones). */
const PEOPLE = 20_000;
const person = (i: number) => {
  const j = (i * 7919) % PEOPLE;
  return `10.${(j >> 16) & 255}.${(j >> 8) & 255}.${j & 255}`;
};

/**
 * A day's nginx log of `lines` lines, `botShare` of them from catalogue agents: AI agents in 10 % of
 * the lines (or the whole share when it is smaller), search crawlers in the rest of the share. Line i
 * falls in bucket (37 i) mod 100, which spreads each kind evenly over every hundred lines.
 */
async function writeLog(file: string, lines: number, day: string, botShare: number): Promise<void> {
  const out = createWriteStream(file, { highWaterMark: 1 << 20 });
  const date = `${day.slice(8, 10)}/${MONTHS[Number(day.slice(5, 7)) - 1]}/${day.slice(0, 4)}`;
  const botBuckets = Math.round(botShare * 100);
  const aiBuckets = Math.min(10, botBuckets);
  let chunk = '';
  for (let i = 0; i < lines; i++) {
    const s = i % 86400;
    const time = `${date}:${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')} +0000`;
    const path = `/docs/${i % PAGES}`;
    const bucket = (i * 37) % 100;
    if (bucket < botBuckets) {
      const [net, ua] = bucket < aiBuckets ? AGENTS[i % AGENTS.length] : SEARCH_CRAWLERS[i % SEARCH_CRAWLERS.length];
      chunk += `${net}${i % 250} - - [${time}] "GET ${path} HTTP/1.1" ${i % 97 === 0 ? 404 : 200} 5120 "-" "${ua}"\n`;
    } else chunk += `${person(i)} - - [${time}] "GET ${path}?ref=${i % 13} HTTP/1.1" 200 2048 "${i % 50 === 1 ? 'https://chatgpt.com/' : 'https://www.google.com/'}" "${OTHERS[i % OTHERS.length]}"\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
      chunk = '';
    }
  }
  await new Promise((r) => out.end(chunk, () => r(undefined)));
}

/** Builds dist/ as the image does (`npm run build`). */
function buildDist(): void {
  const r = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error(`npm run build exited ${r.status}`);
}

/** Runs the CLI, built (`dist`) or compiled as it loads (`dev`); resolves with its stdout and its peak RSS (VmHWM, polled). */
function runCli(mode: 'dist' | 'dev', args: string[], env: Record<string, string>): Promise<{ stdout: string; peakRssMb: number; wallSeconds: number }> {
  const entry = mode === 'dist' ? [...(CLI_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${CLI_PROFILE}`] : []), join(ROOT, 'dist', 'apps', 'cli', 'src', 'main.js')] : ['-r', '@swc-node/register', join(ROOT, 'apps', 'cli', 'src', 'main.ts')];
  return runMeasured(process.execPath, [...entry, ...args], env);
}

/** Runs a program to its end; resolves with its stdout, its peak RSS (VmHWM, polled every 100 ms) and its wall time. */
function runMeasured(command: string, args: string[], env: Record<string, string>): Promise<{ stdout: string; peakRssMb: number; wallSeconds: number }> {
  const t0 = performance.now();
  const child: ChildProcess = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let peakKb = 0;
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const poll = setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (m) peakKb = Math.max(peakKb, Number(m[1]));
    } catch {
      /* gone */
    }
  }, 100);
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => {
      clearInterval(poll);
      if (code !== 0) reject(new Error(`${command} ${args.slice(-3).join(' ')} exited ${code}: ${stderr}`));
      else resolve({ stdout, peakRssMb: round(peakKb / 1024), wallSeconds: (performance.now() - t0) / 1000 });
    }),
  );
}

async function main(): Promise<void> {
  await withBenchDatabase('agent_analytics', async (url) => {
    const ds: DataSource = await createDataSource(url, 4).initialize();
    const children: ChildProcess[] = [];
    const dir = mkdtempSync(join(tmpdir(), 'bench-agent-'));
    try {
      const tenancy = new TenancyRepository(ds);
      const org = await tenancy.createOrganization('Bench', 'enterprise');
      await tenancy.createBrand({ organizationId: org.id, name: 'Acme', domain: 'acme.example', competitors: [] });
      const { key } = await new ApiKeysRepository(ds).create({ organizationId: org.id, scopes: [...ALL_SCOPES], tier: 'enterprise' });
      const day = addDays(utcDay(Date.now()), -1);
      const env = { ...serverEnv(url, `bench_${process.pid}_${randomUUID().slice(0, 6)}`), AGENT_DNS_SERVERS: 'off', AGENT_ROBOTS_URL_TEMPLATE: 'off' };

      // 1. cli logs ingest of each mix, a bare COPY of the same rows already parsed, and GoAccess on the same file.
      const mixes: Record<string, unknown>[] = [];
      if (PARTS.has('logs')) {
        buildDist();
        const goaccess = goaccessVersion();
        for (const share of SHARES) {
          const file = join(dir, 'access.log');
          await writeLog(file, LINES, day, share);
          const load = loadAverage();
          const emptied = () => ds.query('TRUNCATE bot_visits, agent_bot_daily, agent_page_daily, agent_page_totals_daily, ai_referral_daily');
          // Each run stores the log for its own organisation into emptied tables, so the runs write alike.
          const orgOf = async (name: string) => {
            const o = await tenancy.createOrganization(name, 'enterprise');
            await tenancy.createBrand({ organizationId: o.id, name: 'Acme', domain: 'acme.example', competitors: [] });
            return o.id;
          };
          const ingestArgs = (orgId: number) => ['--json', 'logs', 'ingest', '--format', 'nginx', '--org', String(orgId), '--host', 'www.acme.example', file];
          const runs: Partial<Record<'dist' | 'dev', { stdout: string; peakRssMb: number; wallSeconds: number }>> = {};
          for (const mode of CLI_ORDER) {
            await emptied();
            runs[mode] = await runCli(mode, ingestArgs(await orgOf(mode === 'dist' ? `Bench ${share}` : `Bench dev ${share}`)), env);
          }
          const cli = runs.dist!;
          const dev = runs.dev!;
          const summary = JSON.parse(cli.stdout);
          const devSummary = JSON.parse(dev.stdout);
          for (const k of ['lines', 'botVisits', 'aiReferrals', 'otherVisits', 'rejected']) {
            if (devSummary[k] !== summary[k]) throw new Error(`the two CLI runs differ on ${k}: ${summary[k]} (dist) vs ${devSummary[k]} (dev)`);
          }
          await emptied();
          const bare = await bareCopy(url, file, org.id + 1000);
          if (bare.rows !== summary.botVisits) throw new Error(`the bare COPY stored ${bare.rows} rows, the CLI ${summary.botVisits}`);
          const bareLinesPerSecond = LINES / bare.seconds;
          const ga = goaccess ? await runMeasured('goaccess', [file, '--log-format=COMBINED', '--no-progress', '--no-global-config', '-o', join(dir, 'report.html')], {}) : null;
          const mix = {
            botShare: share,
            lines: summary.lines,
            botVisits: summary.botVisits,
            aiReferrals: summary.aiReferrals,
            linesPerSecond: summary.linesPerSecond,
            wallSeconds: round(cli.wallSeconds, 1),
            wallLinesPerSecond: round(LINES / cli.wallSeconds),
            peakRssMb: cli.peakRssMb,
            cliOrder: CLI_ORDER.join(','),
            dev: { linesPerSecond: devSummary.linesPerSecond, wallSeconds: round(dev.wallSeconds, 1), peakRssMb: dev.peakRssMb },
            bareCopy: { rows: bare.rows, seconds: round(bare.seconds, 2), linesPerSecond: round(bareLinesPerSecond) },
            ratioToBareCopy: round(summary.linesPerSecond / bareLinesPerSecond, 2),
            goaccess: ga ? { version: goaccess, wallSeconds: round(ga.wallSeconds, 1), peakRssMb: ga.peakRssMb } : 'absent',
            // GoAccess's wall time over the CLI's (both with their start): 1 or more, the CLI is at least as fast.
            ratioToGoaccess: ga ? { dist: round(ga.wallSeconds / cli.wallSeconds, 2), dev: round(ga.wallSeconds / dev.wallSeconds, 2) } : null,
            loadAverage: { before: load, after: loadAverage() },
          };
          mixes.push(mix);
          process.stderr.write(`logs ingest, ${share * 100} % bots: ${JSON.stringify(mix)}\n`);
        }
      }

      // 2. POST /ingest, 10,000-entry batches from 8 clients.
      let postIngest: Record<string, unknown> | undefined;
      const ports = await serverPorts();
      const [api, bare] = [`http://127.0.0.1:${ports.api}`, `http://127.0.0.1:${ports.baseline}`];
      if (PARTS.has('post') || PARTS.has('reads')) children.push(await startServer('apps/api/src/main.ts', { ...env, PORT: String(ports.api), HOST: '127.0.0.1' }, `${api}/health`));
      if (PARTS.has('post')) {
        const batchBody = JSON.stringify(
          Array.from({ length: 10_000 }, (_, i) => {
            const [net, ua] = i % 10 < 2 ? AGENTS[i % AGENTS.length] : ['10.1.2.', OTHERS[i % OTHERS.length]];
            return { timestamp: `${day}T${String(i % 24).padStart(2, '0')}:00:00Z`, method: 'GET', host: 'www.acme.example', path: `/p/${i % PAGES}`, status: 200, ip: `${net}${i % 250}`, userAgent: ua, bytes: 100 };
          }),
        );
        let next = 0;
        const p0 = performance.now();
        await Promise.all(
          Array.from({ length: 8 }, async () => {
            while (next < POST_BATCHES) {
              next++;
              const res = await fetch(`${api}/api/v1/agent-analytics/ingest`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: batchBody });
              if (res.status !== 202) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
              await res.arrayBuffer();
            }
          }),
        );
        const postSeconds = (performance.now() - p0) / 1000;
        postIngest = { entries: POST_BATCHES * 10_000, seconds: round(postSeconds, 1), entriesPerSecond: round((POST_BATCHES * 10_000) / postSeconds), goalEntriesPerSecond: 50_000 };
        process.stderr.write(`POST /ingest: ${round((POST_BATCHES * 10_000) / postSeconds)} entries/s\n`);
      }

      // 3. Reads over 30 days of seeded rollups (VISITS visits) and a day of raw rows.
      let reads: Record<string, unknown> | undefined;
      if (PARTS.has('reads')) {
        const figures: Record<string, unknown> = {};
        const readOrg = await tenancy.createOrganization('Bench reads', 'enterprise');
        const { key: readKey } = await new ApiKeysRepository(ds).create({ organizationId: readOrg.id, scopes: [...ALL_SCOPES], tier: 'enterprise' });
        const today = utcDay(Date.now());
        const bots = ['GPTBot', 'OAI-SearchBot', 'ChatGPT-User', 'ClaudeBot', 'PerplexityBot', 'Googlebot', 'bingbot', 'Applebot', 'meta-externalagent', 'Bytespider', 'CCBot', 'Amazonbot'];
        const pageRowsPerDay = bots.length * PAGES * 2;
        const perRow = Math.max(1, Math.round(VISITS / (30 * pageRowsPerDay)));
        await ds.query(
          `INSERT INTO agent_page_daily (organization_id, brand_id, host, day, bot_name, path, status, visits, disallowed_visits)
           SELECT $1, 0, 'www.acme.example', $2::date - d, b, '/docs/' || p, s, $3::bigint, CASE WHEN p % 50 = 0 THEN $3::bigint ELSE 0 END
             FROM generate_series(0, 29) d, unnest($4::text[]) b, generate_series(0, $5 - 1) p, unnest(ARRAY[200, 404]::smallint[]) s`,
          [readOrg.id, today, perRow, bots, PAGES],
        );
        await ds.query(
          `INSERT INTO agent_bot_daily (organization_id, brand_id, host, day, bot_name, category, verification, visits, error_visits, disallowed_visits, last_seen)
           SELECT organization_id, brand_id, host, day, bot_name, 'training', v, sum(visits) / 3, sum(visits) FILTER (WHERE status = 404) / 3, sum(disallowed_visits) / 3, day + time '12:00'
             FROM agent_page_daily, unnest(ARRAY['verified', 'spoofed', 'unverifiable']) v WHERE organization_id = $1 GROUP BY organization_id, brand_id, host, day, bot_name, v`,
          [readOrg.id],
        );
        await ds.query(
          `INSERT INTO agent_page_totals_daily (organization_id, brand_id, host, day, path, visits, error_visits, disallowed_visits)
           SELECT organization_id, brand_id, host, day, path, sum(visits), coalesce(sum(visits) FILTER (WHERE status >= 400), 0), sum(disallowed_visits)
             FROM agent_page_daily WHERE organization_id = $1 GROUP BY organization_id, brand_id, host, day, path`,
          [readOrg.id],
        );
        await ds.query(`INSERT INTO ai_referral_daily (organization_id, brand_id, host, day, source, path, visits) SELECT $1, 0, 'www.acme.example', $2::date - d, 'chatgpt', '/docs/' || p, 3 FROM generate_series(0, 29) d, generate_series(0, 99) p`, [readOrg.id, today]);
        const rawRows: BotVisitRow[] = Array.from({ length: RAW_ROWS }, (_, i) => ({ organizationId: readOrg.id, brandId: null, at: Date.parse(`${day}T00:00:00Z`) + (i % 86_400) * 1000, method: 'GET', host: 'www.acme.example', path: `/docs/${i % PAGES}`, status: 200, ip: '20.171.206.1', userAgent: AGENTS[0][1], referer: null, bytes: 1, durationMs: 1, botName: bots[i % bots.length], category: 'training', verification: 'verified', verifiedBy: 'ip-range', robotsDisallowed: false }));
        // The day's partition (the logs and post parts make it as they write; this part may run alone).
        await new VisitStore(ds, sectionOf(loadConfig({ ...process.env, DATABASE_URL: url, AGENT_DNS_SERVERS: 'off', AGENT_ROBOTS_URL_TEMPLATE: 'off' }, [AGENT_ANALYTICS_CONFIG]), AGENT_ANALYTICS_CONFIG)).ensurePartitions([day]);
        const rawPool = new Pool({ connectionString: url, max: 1 });
        const rc = await rawPool.connect();
        await new Promise<void>((resolve, reject) => {
          const stream = rc.query(copyFrom(`COPY ${partitionName(day)} (${BOT_VISIT_COLUMNS}) FROM STDIN (FORMAT binary)`));
          stream.on('error', reject);
          stream.on('finish', resolve);
          for (const chunk of binaryCopyData(rawRows)) stream.write(chunk);
          stream.end();
        });
        rc.release();
        await rawPool.end();
        await ds.query('ANALYZE agent_page_daily; ANALYZE agent_page_totals_daily; ANALYZE agent_bot_daily; ANALYZE ai_referral_daily; ANALYZE bot_visits');
        const [{ seeded }] = await ds.query(`SELECT sum(visits)::bigint AS seeded FROM agent_page_daily WHERE organization_id = $1`, [readOrg.id]);
        children.push(await startServer('bench/support/agent-analytics-baseline-server.ts', { ...env, BASELINE_PORT: String(ports.baseline), BASELINE_ORG: String(readOrg.id) }, `${bare}/trends`));
        const headers = { 'x-api-key': readKey };
        for (const name of ['overview', 'bots', 'pages', 'trends']) figures[name] = await compare(`${api}/api/v1/agent-analytics/${name}?days=30`, `${bare}/${name}?days=30`, headers, SECONDS);
        reads = { seededVisits: Number(seeded), rawRows: RAW_ROWS, ...figures, goals: { rpsRatioAtLeast: 0.5, p99RatioAtMost: 1.5 } };
      }

      console.log(
        JSON.stringify({
          logIngest: PARTS.has('logs') ? { lines: LINES, mixes, goals: { linesPerSecondAtLeast: 100_000, ratioToBareCopyAtLeast: 0.5, peakRssMbAtMost: 300, ratioToGoaccessAtLeast: 1 } } : undefined,
          postIngest,
          reads,
        }),
      );
    } finally {
      for (const c of children) c.kill('SIGTERM');
      await ds.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

/** The rows the CLI stores from the log (its catalogue agents), parsed and encoded first (binary, as the CLI sends them), then COPY alone timed. */
async function bareCopy(url: string, file: string, organizationId: number): Promise<{ rows: number; seconds: number }> {
  const parser = logParser('nginx', { host: 'www.acme.example' });
  const classifier = new BotClassifier();
  const rows: BotVisitRow[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const r = parser.parse(line);
    if (!('visit' in r)) continue;
    const bot = classifier.classify(r.visit.userAgent);
    if (bot) rows.push({ ...r.visit, organizationId, brandId: null, botName: bot.name, category: bot.category, verification: 'verified', verifiedBy: 'ip-range', robotsDisallowed: null });
  }
  const chunks = binaryCopyData(rows);
  const pool = new Pool({ connectionString: url, max: 1 });
  const client = await pool.connect();
  try {
    const c0 = performance.now();
    await new Promise<void>((resolve, reject) => {
      const stream = client.query(copyFrom(`COPY bot_visits (${BOT_VISIT_COLUMNS}) FROM STDIN (FORMAT binary)`));
      stream.on('error', reject);
      stream.on('finish', resolve);
      for (const c of chunks) stream.write(c);
      stream.end();
    });
    return { rows: rows.length, seconds: (performance.now() - c0) / 1000 };
  } finally {
    client.release();
    await pool.end();
  }
}

/** The installed GoAccess's version, or null when there is none. */
function goaccessVersion(): string | null {
  const r = spawnSync('goaccess', ['--version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) return null;
  return /GoAccess - (\d+(?:\.\d+)*)/.exec(r.stdout)?.[1] ?? 'unknown';
}

/** The machine's 1-minute load average (other developers share it). */
const loadAverage = () => round(loadavg()[0], 1);

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
