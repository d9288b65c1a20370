import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { addDays, utcDay } from '@libs/metrics';
import { cli } from '../support/cli';
import { ROOT } from '../support/processes';
import { startTestApi, type TestApi } from '../support/test-api';
import { startLocalHttp } from './local-servers';

/**
 * `logs ingest` in every format, from a file and from standard input, `bots refresh` from a local
 * server, `logs retention`; and the figures end to end on a generated log that is not in the
 * repository (written to a temporary folder, its expected figures counted while writing it).
 */
let api: TestApi;
let web: Awaited<ReturnType<typeof startLocalHttp>>;
let org: { id: number; key: string };
let dir: string;
let env: Record<string, string>;
const today = utcDay(Date.now());
const D1 = addDays(today, -1);
const GPT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const PPLX = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)';
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const AHREFS = 'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const timeLocal = (day: string, hms = '10:00:00') => `${day.slice(8, 10)}/${MONTHS[Number(day.slice(5, 7)) - 1]}/${day.slice(0, 4)}:${hms} +0000`;
const nginx = (ip: string, ua: string, path: string, status = 200, day = D1, referer = '-') => `${ip} - - [${timeLocal(day)}] "GET ${path} HTTP/1.1" ${status} 512 "${referer}" "${ua}"`;

function runWithStdin(args: string[], input: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', join(ROOT, 'apps', 'cli', 'src', 'main.ts'), ...args], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

const get = async (url: string) => (await api.request({ url, key: org.key })).body;

beforeAll(async () => {
  web = await startLocalHttp({
    '/ranges/gptbot.json': { type: 'application/json', body: JSON.stringify({ creationTime: '2026-11-20T00:00:00', prefixes: [{ ipv4Prefix: '192.0.2.0/24' }, { ipv6Prefix: '2001:db8:77::/48' }] }) },
    '/ranges/perplexitybot.json': { type: 'application/json', body: JSON.stringify({ prefixes: [{ ipv4Prefix: '198.51.100.0/24' }] }) },
  });
  api = await startTestApi({ AGENT_DNS_SERVERS: 'off', AGENT_ROBOTS_URL_TEMPLATE: 'off', AGENT_RETENTION_DAYS: '1000' });
  org = await api.organization();
  await api.tenancy.createBrand({ organizationId: org.id, name: 'Acme', domain: 'acme.example', competitors: [] });
  dir = mkdtempSync(join(tmpdir(), 'agent-logs-'));
  env = { DATABASE_URL: api.db.url, AGENT_DNS_SERVERS: 'off', AGENT_ROBOTS_URL_TEMPLATE: 'off', AGENT_RANGES_BASE_URL: `${web.url}/ranges`, AGENT_RETENTION_DAYS: '1000' };
});

afterAll(async () => {
  await api?.close();
  await new Promise((r) => (web?.server as Server | undefined)?.close(r));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('logs ingest', () => {
  it('ends to end on a generated nginx log: the summary and every figure match the counts made while writing it', async () => {
    const file = join(dir, 'access.log');
    const out = createWriteStream(file);
    const expected = { lines: 0, gpt: 0, gptVerified: 0, pplx: 0, referrals: 0, other: 0, rejected: 0, tooOld: 0, pages: new Set<string>(), errors: 0 };
    for (let i = 0; i < 3000; i++) {
      const k = i % 10;
      let line: string;
      if (k === 0) {
        const inRange = i % 20 === 0;
        const status = i % 30 === 0 ? 404 : 200;
        line = nginx(inRange ? '20.171.206.9' : '203.0.113.9', GPT, `/docs/${i % 7}?v=${i}`, status);
        expected.gpt++;
        if (inRange) expected.gptVerified++;
        if (status >= 400) expected.errors++;
        expected.pages.add(`/docs/${i % 7}`);
      } else if (k === 1) {
        line = nginx('2001:db8::5', PPLX, '/blog');
        expected.pplx++;
        expected.pages.add('/blog');
      } else if (k === 2) {
        line = nginx('192.0.2.50', CHROME, '/pricing', 200, D1, 'https://www.perplexity.ai/search/x');
        expected.referrals++;
      } else if (k === 3 && i % 100 === 3) {
        line = i % 200 === 3 ? '\u0016\u0003\u0001\u0002\u0000 binary garbage' : nginx('192.0.2.1', CHROME, '/', 200, '2026-02-30');
        expected.rejected++;
      } else if (k === 4 && i % 100 === 4) {
        // Older than retention: refused whether an AI agent or a person (whose visit is otherwise only counted).
        line = nginx('192.0.2.52', i % 200 === 4 ? CHROME : GPT, '/old', 200, addDays(today, -1100));
        expected.rejected++;
        expected.tooOld++;
      } else {
        line = nginx('192.0.2.51', k % 2 ? AHREFS : CHROME, '/');
        expected.other++;
      }
      out.write(line + '\n');
      expected.lines++;
    }
    await new Promise((r) => out.end(r));
    const res = await cli(['--json', 'logs', 'ingest', '--format', 'nginx', '--org', String(org.id), '--host', 'www.acme.example', '--batch', '500', file], env);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const summary = JSON.parse(res.stdout);
    expect(summary).toMatchObject({ lines: expected.lines, botVisits: expected.gpt + expected.pplx, aiReferrals: expected.referrals, otherVisits: expected.other, rejected: expected.rejected });
    expect(summary.rejections[0]).toEqual({ line: 4, reason: 'not a combined log line (ip - user [time] "request" status bytes "referer" "user agent")' });
    expect(summary.reasons['the time is not a real instant']).toBe((expected.rejected - expected.tooOld) / 2);
    expect(summary.reasons['the visit is older than the retention period (1000 days)']).toBe(expected.tooOld);
    const overview = (await get('/api/v1/agent-analytics/overview')).data;
    expect(overview).toMatchObject({ visits: expected.gpt + expected.pplx, verifiedVisits: expected.gptVerified, spoofedVisits: expected.gpt - expected.gptVerified, unverifiableVisits: expected.pplx, uniqueBots: 2, pagesCrawled: expected.pages.size, aiReferralVisits: expected.referrals });
    const gpt = (await get('/api/v1/agent-analytics/bots')).data.find((b: { botName: string }) => b.botName === 'GPTBot');
    expect(gpt).toMatchObject({ visits: expected.gpt, verifiedVisits: expected.gptVerified, crawlBlock: { errorVisits: expected.errors } });
  }, 120_000);

  it('reads apache (vhost), CloudFront, Cloudflare and NDJSON logs, and standard input', async () => {
    const run = async (format: string, lines: string[], extra: string[] = []) => {
      const file = join(dir, `${format}.log`);
      writeFileSync(file, lines.join('\n') + '\n');
      const res = await cli(['--json', 'logs', 'ingest', '--format', format, '--org', String(org.id), ...extra, file], env);
      expect({ code: res.code, stderr: res.stderr }).toEqual({ code: 0, stderr: '' });
      return JSON.parse(res.stdout);
    };
    expect(await run('apache', [`shop.acme.example:443 ${nginx('20.171.206.20', GPT, '/apache')}`, 'garbage'])).toMatchObject({ lines: 2, botVisits: 1, rejected: 1, rejections: [{ line: 2 }] });
    const cf = [
      '#Version: 1.0',
      '#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query',
      [D1, '10:00:00', 'FRA56', '100', '20.171.206.21', 'GET', 'd1.cloudfront.net', '/cf', '200', '-', 'Mozilla/5.0%20(compatible;%20GPTBot/1.2)', '-'].join('\t'),
      [D1, '10:00:00', 'FRA56', '100', '20.171.206.21', 'GET', 'd1.cloudfront.net', '/cf', '200', '-', 'bad%E0%A4%A', '-'].join('\t'),
      [D1, '10:00:00'].join('\t'),
    ];
    expect(await run('cloudfront', cf)).toMatchObject({ lines: 5, botVisits: 1, rejected: 2 });
    const flare = [
      JSON.stringify({ ClientIP: '20.171.206.22', ClientRequestHost: 'acme.example', ClientRequestMethod: 'GET', ClientRequestURI: '/cf2', ClientRequestUserAgent: GPT, EdgeResponseStatus: 200, EdgeStartTimestamp: `${D1}T10:00:00Z` }),
      '{"ClientIP":',
    ];
    expect(await run('cloudflare', flare)).toMatchObject({ botVisits: 1, rejected: 1 });
    const nd = [JSON.stringify({ timestamp: `${D1}T10:00:00Z`, method: 'GET', host: 'acme.example', path: '/nd', status: 200, ip: '20.171.206.23', userAgent: GPT }), JSON.stringify({ timestamp: 'yesterday' })];
    expect(await run('ndjson', nd)).toMatchObject({ botVisits: 1, rejected: 1 });
    const piped = await runWithStdin(['--json', 'logs', 'ingest', '--format', 'nginx', '--org', String(org.id), '--host', 'acme.example', '-'], [nginx('20.171.206.24', GPT, '/stdin'), nginx('20.171.206.24', GPT, '/stdin2')].join('\n'));
    expect(piped.code).toBe(0);
    expect(JSON.parse(piped.stdout)).toMatchObject({ file: '-', lines: 2, botVisits: 2 });
    expect((await get('/api/v1/agent-analytics/visits?url=/stdin*')).meta.total).toBe(2);
  }, 400_000);

  it('refuses bad usage with exit code 2', async () => {
    expect((await cli(['logs', 'ingest', '--format', 'iis', '--org', String(org.id), 'x.log'], env)).code).toBe(2);
    expect((await cli(['logs', 'ingest', '--format', 'nginx', '--org', '999999', join(dir, 'access.log')], env)).code).toBe(2);
    expect((await cli(['logs', 'ingest', '--format', 'nginx', '--org', String(org.id), join(dir, 'missing.log')], env)).code).toBe(2);
  }, 200_000);
});

describe('bots refresh and retention', () => {
  it('bots refresh stores the downloaded ranges over the snapshot: a GPTBot from a new range is then verified', async () => {
    const ingest = (ip: string, path: string) => api.request({ method: 'POST', url: '/api/v1/agent-analytics/ingest', key: org.key, body: [{ timestamp: `${D1}T11:00:00Z`, method: 'GET', host: 'acme.example', path, status: 200, ip, userAgent: GPT }] });
    await ingest('192.0.2.77', '/before-refresh');
    const res = await cli(['--json', 'bots', 'refresh'], env);
    expect(res.code).toBe(0);
    const results = JSON.parse(res.stdout).results as { botId: string; prefixes?: number; error?: string }[];
    expect(results.find((r) => r.botId === 'gptbot')).toMatchObject({ prefixes: 2 });
    expect(results.find((r) => r.botId === 'perplexitybot')).toMatchObject({ prefixes: 1 });
    expect(results.find((r) => r.botId === 'oai-searchbot')).toMatchObject({ error: 'HTTP 404' });
    // The API process reloads the ranges within a minute; a fresh process (the CLI) at once.
    const file = join(dir, 'after.log');
    writeFileSync(file, nginx('192.0.2.78', GPT, '/after-refresh') + '\n' + nginx('20.171.206.25', GPT, '/after-refresh') + '\n');
    expect((await cli(['--json', 'logs', 'ingest', '--format', 'nginx', '--org', String(org.id), '--host', 'acme.example', file], env)).code).toBe(0);
    const visits = (await get('/api/v1/agent-analytics/visits?url=/*-refresh')).data as { ip: string; verification: string }[];
    expect(Object.fromEntries(visits.map((v) => [v.ip, v.verification]))).toEqual({ '192.0.2.77': 'spoofed', '192.0.2.78': 'verified', '20.171.206.25': 'spoofed' });
  }, 200_000);

  it('logs retention drops whole day partitions older than the retention period, and their rollups', async () => {
    const old = addDays(today, -450);
    const file = join(dir, 'old.log');
    writeFileSync(file, nginx('20.171.206.30', GPT, '/old', 200, old) + '\n' + nginx('20.171.206.30', GPT, '/recent', 200, addDays(today, -10)) + '\n');
    expect((await cli(['--json', 'logs', 'ingest', '--format', 'nginx', '--org', String(org.id), '--host', 'acme.example', file], env)).code).toBe(0);
    const partitions = async () => ((await api.dataSource.query(`SELECT relname FROM pg_class WHERE relname LIKE 'bot_visits_p%' AND relkind = 'r' ORDER BY relname`)) as { relname: string }[]).map((r) => r.relname);
    const oldName = `bot_visits_p${old.replace(/-/g, '')}`;
    expect(await partitions()).toContain(oldName);
    const res = await cli(['--json', 'logs', 'retention'], { ...env, AGENT_RETENTION_DAYS: '400' });
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ keepFrom: addDays(today, -399), droppedPartitions: [oldName] });
    expect(await partitions()).not.toContain(oldName);
    expect(await partitions()).toContain(`bot_visits_p${addDays(today, -10).replace(/-/g, '')}`);
    const [{ n }] = await api.dataSource.query(`SELECT count(*)::int AS n FROM agent_page_daily WHERE day < $1::date`, [addDays(today, -399)]);
    expect(n).toBe(0);
    expect((await get('/api/v1/agent-analytics/visits?url=/recent&days=30')).meta.total).toBe(1);
  }, 200_000);
});
