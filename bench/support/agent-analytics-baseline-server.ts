import Fastify from 'fastify';
import { Pool } from 'pg';
import { AGENT_SQL } from '@libs/agent-analytics';
import { addDays, utcDay } from '@libs/metrics';
import { preparedQuery } from '@libs/sql';

/**
 * The baseline of the agent-analytics benchmark: a bare Fastify app with a pg pool running the same
 * statements as GET /api/v1/agent-analytics/overview, /bots, /pages and /trends and returning their
 * rows as JSON, with no authentication, rate limit, usage, validation, tenancy or shaping.
 * Run as a child process: BASELINE_PORT, DATABASE_URL, BASELINE_ORG.
 */
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const organizationId = Number(process.env.BASELINE_ORG);
const app = Fastify({ logger: false });
const filter = (q: Record<string, string>) => {
  const end = utcDay(Date.now());
  return { organizationId, start: addDays(end, -(Number(q.days ?? 30) - 1)), end, brandIds: null, host: null };
};
const run = (sql: { text: string; params: unknown[] }) => preparedQuery(pool, sql.text, sql.params);
app.get('/overview', async (request) => ({ data: await run(AGENT_SQL.overview(filter(request.query as Record<string, string>))) }));
app.get('/bots', async (request) => ({ data: await run(AGENT_SQL.bots(filter(request.query as Record<string, string>))) }));
app.get('/pages', async (request) => ({ data: await run(AGENT_SQL.pages(filter(request.query as Record<string, string>), 50)) }));
app.get('/trends', async (request) => ({ data: await run(AGENT_SQL.trends(filter(request.query as Record<string, string>))) }));
app.listen({ port: Number(process.env.BASELINE_PORT), host: '127.0.0.1' }).then(() => process.stdout.write('ready\n'));
process.on('SIGTERM', () => void app.close().then(() => pool.end()).then(() => process.exit(0)));
