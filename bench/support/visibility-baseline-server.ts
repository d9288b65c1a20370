import Fastify from 'fastify';
import { Pool } from 'pg';
import { addDays, utcDay } from '@libs/metrics';
import { preparedQuery } from '@libs/sql';
import { rollupSumsSql, SOV_COUNTERS, VISIBILITY_TRENDS_COUNTERS } from '@libs/visibility';

/**
 * The baseline of the visibility benchmark: a bare Fastify app with a pg pool running the same
 * rollup statements as GET /api/v1/visibility/trends, /visibility/sov and /brand-index/latest and
 * returning their rows as JSON, with no authentication, rate limit, usage, validation, tenancy
 * lookups, figures or logging. Run as a child process: BASELINE_PORT, DATABASE_URL, BASELINE_ORG.
 */
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const organizationId = Number(process.env.BASELINE_ORG);
const app = Fastify({ logger: false });
const today = () => utcDay(Date.now());
const run = (sql: { text: string; params: unknown[] }) => preparedQuery(pool, sql.text, sql.params);
app.get('/trends', async (request) => {
  const q = request.query as Record<string, string>;
  const end = today();
  return { data: await run(rollupSumsSql({ organizationId, brandId: Number(q.brandId), start: addDays(end, -(Number(q.days ?? 30) - 1)), end }, ['day', 'provider'], VISIBILITY_TRENDS_COUNTERS)) };
});
app.get('/sov', async (request) => {
  const q = request.query as Record<string, string>;
  return { data: await run(rollupSumsSql({ organizationId, brandId: Number(q.brandId), start: q.startDate, end: q.endDate }, ['provider', 'query'], SOV_COUNTERS)) };
});
app.get('/brand-index', async (request) => {
  const q = request.query as Record<string, string>;
  const [{ day }] = (await preparedQuery(pool, `SELECT to_char(max(day), 'YYYY-MM-DD') AS day FROM answer_daily_rollups WHERE organization_id = $1 AND brand_id = $2 AND answers > 0`, [organizationId, Number(q.brandId)])) as { day: string }[];
  return { data: await run(rollupSumsSql({ organizationId, brandId: Number(q.brandId), start: addDays(day, -29), end: day }, ['provider'])) };
});
app.listen({ port: Number(process.env.BASELINE_PORT), host: '127.0.0.1' }).then(() => process.stdout.write('ready\n'));
process.on('SIGTERM', () => void app.close().then(() => pool.end()).then(() => process.exit(0)));
