import Fastify from 'fastify';
import { Pool } from 'pg';
import { METRICS_TABLE, rowsSql } from '@libs/channels';
import { preparedQuery } from '@libs/sql';

/**
 * The baseline of the channels benchmark: a bare Fastify app with a pg pool running the statement
 * of GET /api/v1/metrics (a client's rows over a period, newest first, a page of 50 with the total)
 * and returning its rows as JSON, with no authentication, rate limit, usage, validation, tenancy
 * checks or logging. Run as a child process: BASELINE_PORT, DATABASE_URL, BASELINE_ORG.
 */
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const organizationId = Number(process.env.BASELINE_ORG);
const app = Fastify({ logger: false });
app.get('/metrics', async (request) => {
  const q = request.query as Record<string, string>;
  const sql = rowsSql(METRICS_TABLE, { organizationId, boundClientId: null, clientId: Number(q.clientId), startDate: q.startDate, endDate: q.endDate }, 'day', 'desc', 50, 0);
  const rows = await preparedQuery<Record<string, unknown>>(pool, sql.text, sql.params);
  return { data: rows, meta: { total: rows.length ? Number(rows[0].total) : 0, limit: 50, offset: 0 } };
});
app.listen({ port: Number(process.env.BASELINE_PORT), host: '127.0.0.1' }).then(() => process.stdout.write('ready\n'));
process.on('SIGTERM', () => void app.close().then(() => pool.end()).then(() => process.exit(0)));
