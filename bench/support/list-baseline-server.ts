import Fastify from 'fastify';
import { Pool } from 'pg';
import { listOpportunitiesSql, opportunityRowFromSql, toRecord, type Severity, type Status } from '../../libs/opportunities/src';

/**
 * The baseline of the list benchmark: a bare Fastify app with a pg pool running the same SQL as
 * GET /api/v1/opportunities (page + count), with no authentication, rate limit, usage or
 * validation. Run as a child process: BASELINE_PORT, DATABASE_URL, BASELINE_ORG.
 */
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const organizationId = Number(process.env.BASELINE_ORG);
const app = Fastify({ logger: false });
app.get('/opportunities', async (request) => {
  const q = request.query as Record<string, string | undefined>;
  const sql = listOpportunitiesSql(
    { organizationId, clientId: null },
    {
      status: q.status?.split(',') as Status[] | undefined,
      severity: q.severity?.split(',') as Severity[] | undefined,
      limit: Number(q.limit ?? 50),
      offset: Number(q.offset ?? 0),
      order: 'desc',
    },
  );
  const [rows, count] = await Promise.all([pool.query(sql.page, sql.params), pool.query(sql.count, sql.params)]);
  const now = new Date();
  const data = rows.rows.map((r: Record<string, unknown>) => toRecord(opportunityRowFromSql(r).state, now));
  const total = (count.rows[0] as { total: number }).total;
  return { data, meta: { total, limit: Number(q.limit ?? 50), offset: Number(q.offset ?? 0), hasMore: Number(q.offset ?? 0) + data.length < total } };
});
app.listen({ port: Number(process.env.BASELINE_PORT), host: '127.0.0.1' }).then(() => process.stdout.write('ready\n'));
process.on('SIGTERM', () => void app.close().then(() => pool.end()).then(() => process.exit(0)));
