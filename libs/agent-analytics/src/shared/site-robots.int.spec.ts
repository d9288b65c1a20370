import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDataSource } from '@libs/database';
import { loadConfig, sectionOf } from '@libs/config';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { AGENT_ANALYTICS_CONFIG } from '../agent-analytics.config';
import { AgentEgress, AGENT_ANALYTICS_USER_AGENT } from './agent-egress';
import { SiteRobots } from './site-robots';

/** A registered site's robots.txt is read through the egress guard: a loopback address is refused unless AGENT_ALLOWED_ADDRESSES lets it through. */
let db: TestDatabase;
let ds: ReturnType<typeof createDataSource>;
let server: Server;
const seen: { url: string; userAgent: string | undefined }[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  ds = await createDataSource(db.url, 2).initialize();
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', userAgent: req.headers['user-agent'] });
    const rules = 'User-agent: GPTBot\nDisallow: /private/\n';
    // A robots.txt longer than the 512 KiB read: its first rules still count (RFC 9309), the rest is cut.
    const body = req.url?.includes('big.example') ? `${rules}${'# padding\n'.repeat(70_000)}User-agent: ClaudeBot\nDisallow: /\n` : rules;
    res.writeHead(200, { 'content-type': 'text/plain' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  server.close();
  await ds?.destroy();
  await db?.drop();
});

function robots(env: Record<string, string>) {
  const config = sectionOf(loadConfig({ ...process.env, DATABASE_URL: db.url, AGENT_ROBOTS_URL_TEMPLATE: `http://127.0.0.1:${(server.address() as AddressInfo).port}/robots/{host}`, ...env }, [AGENT_ANALYTICS_CONFIG]), AGENT_ANALYTICS_CONFIG);
  const egress = new AgentEgress(config);
  return { site: new SiteRobots(ds, egress, config), egress };
}

it('refuses a loopback address by default: nothing is fetched, nothing is known', async () => {
  const { site, egress } = robots({});
  expect(await site.of('guarded.example')).toBeNull();
  expect(seen).toEqual([]);
  egress.onModuleDestroy();
});

it('reads it where the allowance lets the address through, naming itself', async () => {
  const { site, egress } = robots({ AGENT_ALLOWED_ADDRESSES: '127.0.0.1' });
  const parsed = await site.of('allowed.example');
  expect(SiteRobots.disallowed(parsed, 'allowed.example', '/private/x', 'GPTBot')).toBe(true);
  expect(SiteRobots.disallowed(parsed, 'allowed.example', '/pricing', 'GPTBot')).toBe(false);
  expect(seen).toEqual([{ url: '/robots/allowed.example', userAgent: AGENT_ANALYTICS_USER_AGENT }]);
  const big = await site.of('big.example');
  expect(SiteRobots.disallowed(big, 'big.example', '/private/x', 'GPTBot')).toBe(true);
  expect(SiteRobots.disallowed(big, 'big.example', '/x', 'ClaudeBot')).toBe(false);
  egress.onModuleDestroy();
});
