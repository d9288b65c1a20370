import Fastify from 'fastify';
import { Pool } from 'pg';
import { preparedQuery } from '@libs/sql';
import { kpisFromRows, listOpportunitiesSql, listPageJson, opportunityKpisSql, type KpiRow, type ListRow, type Severity, type Status } from '@libs/opportunities';

/**
 * The baselines of the opportunities benchmark: a bare Fastify app with a pg pool running the same
 * prepared statements as GET /api/v1/opportunities (`/opportunities`) and GET
 * /api/v1/opportunities/_summary/kpis (`/kpis`) and assembling the same JSON from their rows, with
 * no authentication, rate limit, usage, validation, logging, metrics or read-your-writes wait. Run
 * as a child process: BASELINE_PORT, DATABASE_URL, BASELINE_ORG.
 */
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const organizationId = Number(process.env.BASELINE_ORG);
const app = Fastify({ logger: false });
app.get('/opportunities', async (request, reply) => {
  const q = request.query as Record<string, string | undefined>;
  const query = {
    status: q.status?.split(',') as Status[] | undefined,
    severity: q.severity?.split(',') as Severity[] | undefined,
    limit: Number(q.limit ?? 50),
    offset: Number(q.offset ?? 0),
    order: 'desc' as const,
  };
  const sql = listOpportunitiesSql({ organizationId, clientId: null }, query);
  reply.header('content-type', 'application/json; charset=utf-8');
  return listPageJson(await preparedQuery<ListRow>(pool, sql.text, sql.params), query);
});
app.get('/kpis', async () => {
  const sql = opportunityKpisSql({ organizationId, clientId: null });
  return { data: kpisFromRows(await preparedQuery<KpiRow>(pool, sql.text, sql.params)) };
});
app.listen({ port: Number(process.env.BASELINE_PORT), host: '127.0.0.1' }).then(() => process.stdout.write('ready\n'));
process.on('SIGTERM', () => void app.close().then(() => pool.end()).then(() => process.exit(0)));
