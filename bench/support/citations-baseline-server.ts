import Fastify from 'fastify';
import { Pool } from 'pg';
import {
  absenceCompetitorsSql,
  absenceDensitySql,
  absencePromptsSql,
  changePageSql,
  citationDailySql,
  citationDays,
  citationOwnersSql,
  citationRateSql,
  citationTrendsResponse,
  dailyRollupAnswers,
  domainCitationsSql,
  domainExamplesSql,
  promptCompetitorsSql,
  promptSourcesSql,
  promptSumsSql,
  promptTrendsResponse,
  providersAskedSql,
  type AnswerFilter,
  type CitationDayRow,
  type CitationOwnersRow,
  type CitationRateRow,
  type PromptSumsRow,
  type Sql,
} from '@libs/citations';
import { addDays, utcDay } from '@libs/metrics';
import { preparedQuery } from '@libs/sql';

/**
 * The baseline of the citations benchmark: a bare Fastify app with a pg pool running the same
 * statements as GET /api/v1/citation-sources/top, /citation-sources/absences, /prompts/insights and
 * /changes, in the same order and concurrency, returning their rows as JSON, with no
 * authentication, rate limit, usage, validation, tenancy lookups, scoring or logging; and as GET
 * /api/v1/citations/trends and /prompts/trends (`/citation-trends`, `/prompt-trends`, `days`),
 * building the very JSON the API sends from their rows with the API's own function (the brand's
 * name read once and kept: no per-request tenancy lookup). Run as a child process: BASELINE_PORT,
 * DATABASE_URL, BASELINE_ORG.
 */
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const organizationId = Number(process.env.BASELINE_ORG);
const app = Fastify({ logger: false });
const run = (sql: Sql) => preparedQuery(pool, sql.text, sql.params);
const lastDays = (brandId: number, range: number): AnswerFilter => ({ organizationId, brandId, start: addDays(utcDay(Date.now()), -(range - 1)), end: utcDay(Date.now()) });
const period = (q: Record<string, string>): AnswerFilter => ({ organizationId, brandId: Number(q.brandId), start: q.startDate, end: q.endDate });

app.get('/top', async (request) => {
  const q = request.query as Record<string, string>;
  const f = lastDays(Number(q.brandId), Number(q.range ?? 30));
  const [rows, providers] = await Promise.all([run(domainCitationsSql(f)), run(providersAskedSql(f))]);
  const domains = [...new Set(rows.map((r) => r.domain as string))].slice(0, 50);
  return { data: { rows, providers, examples: await run(domainExamplesSql(f, domains)) } };
});
app.get('/absences', async (request) => {
  const q = request.query as Record<string, string>;
  const f = lastDays(Number(q.brandId), Number(q.range ?? 30));
  const [rows, providers, density] = await Promise.all([run(domainCitationsSql(f)), run(providersAskedSql(f)), run(absenceDensitySql(f))]);
  const domains = density.slice(0, 50).map((d) => d.domain as string);
  const [competitors, prompts] = await Promise.all([run(absenceCompetitorsSql(f, domains)), run(absencePromptsSql(f, domains))]);
  return { data: { rows, providers, density, competitors, prompts } };
});
app.get('/insights', async (request) => {
  const f = period(request.query as Record<string, string>);
  const rows = await run(promptSumsSql(f));
  const queries = rows.slice(0, 50).map((r) => r.query as string);
  const [competitors, sources] = await Promise.all([run(promptCompetitorsSql(f, queries)), run(promptSourcesSql(f, queries))]);
  return { data: { rows, competitors, sources } };
});
const names = new Map<number, Promise<string>>();
/** The brand as the API names it (`AnswerScope.entity`), its name read once. */
const brandEntity = async (brandId: number) => {
  if (!names.has(brandId)) names.set(brandId, pool.query<{ name: string }>('SELECT name FROM brands WHERE id = $1', [brandId]).then((r) => r.rows[0].name));
  return { id: `brand-${brandId}`, name: await names.get(brandId)!, kind: 'brand' as const };
};
app.get('/citation-trends', async (request, reply) => {
  const q = request.query as Record<string, string>;
  const f = lastDays(Number(q.brandId), Number(q.days ?? 30));
  // As the API: the daily rollup when no prompt is named (never here), else the statements over the answers.
  const days = dailyRollupAnswers(f)
    ? (run(citationDailySql(f)) as Promise<CitationDayRow[]>)
    : Promise.all([run(citationRateSql(f)) as Promise<CitationRateRow[]>, run(citationOwnersSql(f)) as Promise<CitationOwnersRow[]>]).then(([rates, owners]) => citationDays(rates, owners));
  const [rows, brand] = await Promise.all([days, brandEntity(f.brandId)]);
  reply.header('content-type', 'application/json; charset=utf-8');
  return citationTrendsResponse(f, brand, rows);
});
app.get('/prompt-trends', async (request, reply) => {
  const q = request.query as Record<string, string>;
  const f = lastDays(Number(q.brandId), Number(q.days ?? 30));
  const [rows, brand] = await Promise.all([run(promptSumsSql(f, true)) as Promise<PromptSumsRow[]>, brandEntity(f.brandId)]);
  reply.header('content-type', 'application/json; charset=utf-8');
  return promptTrendsResponse(f, brand, rows);
});
app.get('/changes', async (request) => {
  const f = period(request.query as Record<string, string>);
  return { data: await run(changePageSql(f, { column: 'asked_at', order: 'desc', limit: 50, offset: 0 })) };
});
app.listen({ port: Number(process.env.BASELINE_PORT), host: '127.0.0.1' }).then(() => process.stdout.write('ready\n'));
process.on('SIGTERM', () => void app.close().then(() => pool.end()).then(() => process.exit(0)));
