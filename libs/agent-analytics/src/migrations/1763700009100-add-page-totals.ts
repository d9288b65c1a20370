import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pages per day without the bot dimension (`agent_page_totals_daily`): `overview` counts distinct
 * pages and `pages` picks its top pages from it, a fraction of the rows of `agent_page_daily`
 * (one row per page and day instead of per page, bot, status and day); the per-bot breakdown of
 * the chosen pages is then read by page (a new index).
 */
export class AddPageTotals1763700009100 implements MigrationInterface {
  name = 'AddPageTotals1763700009100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agent_page_totals_daily (
        organization_id bigint NOT NULL,
        brand_id bigint NOT NULL,
        host text NOT NULL,
        day date NOT NULL,
        path text NOT NULL,
        visits bigint NOT NULL,
        error_visits bigint NOT NULL,
        disallowed_visits bigint NOT NULL,
        PRIMARY KEY (organization_id, day, brand_id, host, path)
      )`);
    await q.query(`
      INSERT INTO agent_page_totals_daily (organization_id, brand_id, host, day, path, visits, error_visits, disallowed_visits)
      SELECT organization_id, brand_id, host, day, path, sum(visits), coalesce(sum(visits) FILTER (WHERE status >= 400), 0), sum(disallowed_visits)
        FROM agent_page_daily GROUP BY organization_id, brand_id, host, day, path`);
    await q.query(`CREATE INDEX agent_page_daily_page ON agent_page_daily (organization_id, host, path, day)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX agent_page_daily_page');
    await q.query('DROP TABLE agent_page_totals_daily');
  }
}
