import { Readable } from 'node:stream';
import { createDataSource } from '@libs/database';
import { loadConfig, sectionOf } from '@libs/config';
import { addDays, utcDay } from '@libs/metrics';
import { TenancyRepository } from '@libs/tenancy';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/test-database';
import { AGENT_ANALYTICS_CONFIG, type AgentAnalyticsConfig } from '../agent-analytics.config';
import { AgentEgress } from '../shared/agent-egress';
import { BotRanges } from '../shared/bot-ranges';
import { BotVerifier } from '../shared/bot-verifier';
import { SiteRobots } from '../shared/site-robots';
import { VisitIngester } from '../shared/visit-ingester';
import { VisitStore } from '../shared/visit-store';
import { WebBotAuth } from '../shared/web-bot-auth';
import { LogIngestion } from './log-ingestion';

/** `logs ingest` against PostgreSQL, where the transactions it streams into matter. */
let db: TestDatabase;
let ds: ReturnType<typeof createDataSource>;
let config: AgentAnalyticsConfig;
let org: number;

beforeAll(async () => {
  db = await createTestDatabase();
  ds = await createDataSource(db.url, 4).initialize();
  config = sectionOf(loadConfig({ ...process.env, DATABASE_URL: db.url, AGENT_DNS_SERVERS: 'off', AGENT_ROBOTS_URL_TEMPLATE: 'off' }, [AGENT_ANALYTICS_CONFIG]), AGENT_ANALYTICS_CONFIG);
  org = (await new TenancyRepository(ds).createOrganization('Logs', 'enterprise')).id;
});
afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

const D1 = addDays(utcDay(Date.now()), -1);
const GPT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';

function logIngestion(): LogIngestion {
  const egress = new AgentEgress(config);
  const verifier = new BotVerifier(new BotRanges(ds, config), new WebBotAuth(config, egress), config);
  return new LogIngestion(new VisitIngester(new TenancyRepository(ds), verifier, new SiteRobots(ds, egress, config), config), new VisitStore(ds, config));
}

describe('logs ingest across days', () => {
  it('stores a log whose days come and go: a new day once a transaction holds bot_visits goes to the next transaction', async () => {
    const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    const days = [addDays(D1, -10), addDays(D1, -9), addDays(D1, -10), addDays(D1, -8), addDays(D1, -9), addDays(D1, -7)];
    const lines = days.flatMap((d, k) =>
      Array.from({ length: 50 }, (_, i) => `20.171.206.${i} - - [${d.slice(8, 10)}/${MONTHS[Number(d.slice(5, 7)) - 1]}/${d.slice(0, 4)}:10:00:00 +0000] "GET /across/${k}/${i} HTTP/1.1" 200 10 "-" "${GPT}"`),
    );
    const summary = await logIngestion().run(Readable.from([lines.join('\n') + '\n']), { format: 'nginx', organizationId: org, host: 'acme.example', batchSize: 70 });
    expect(summary).toMatchObject({ lines: 300, botVisits: 300, rejected: 0 });
    const stored: { day: string; n: number }[] = await ds.query(`SELECT to_char(visited_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS n FROM bot_visits WHERE organization_id = $1 AND path LIKE '/across/%' GROUP BY 1 ORDER BY 1`, [org]);
    expect(stored).toEqual([
      { day: addDays(D1, -10), n: 100 },
      { day: addDays(D1, -9), n: 100 },
      { day: addDays(D1, -8), n: 50 },
      { day: addDays(D1, -7), n: 50 },
    ]);
    const rollups: { n: string }[] = await ds.query(`SELECT sum(visits)::text AS n FROM agent_page_daily WHERE organization_id = $1 AND path LIKE '/across/%'`, [org]);
    expect(rollups).toEqual([{ n: '300' }]);
  });
});

