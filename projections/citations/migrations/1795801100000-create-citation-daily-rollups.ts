import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `citation_daily_rollups` (issue 33 part 1): per brand, UTC day, provider and market, the analysed
 * answers, those with a citation, those citing the brand, and the citations by owner (brand,
 * competitor, other): what `GET /citations/trends` reads when no prompt is named, instead of
 * grouping a year of `prompt_answers` and `citation_records` per request. Each answer's citations
 * by owner go on its `prompt_answers` row, so that the projector that keeps both (prompt_answers)
 * subtracts an answer's old part on a re-analysis.
 *
 * Backfill: the owners' counts from `citation_records` (kept in the same projector group's
 * transaction as `prompt_answers`, so both stand at the same event), then the rollup as the GROUP
 * BY of `prompt_answers` that defines it. `projections rebuild prompt_answers` rebuilds both.
 */
export class CreateCitationDailyRollups1795801100000 implements MigrationInterface {
  name = 'CreateCitationDailyRollups1795801100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE prompt_answers ADD COLUMN brand_citations integer NOT NULL DEFAULT 0, ADD COLUMN competitor_citations integer NOT NULL DEFAULT 0, ADD COLUMN other_citations integer NOT NULL DEFAULT 0`);
    await q.query(`
      UPDATE prompt_answers p SET brand_citations = c.brand, competitor_citations = c.competitor, other_citations = c.other
        FROM (SELECT result_id, count(*) FILTER (WHERE owner = 'brand')::int AS brand, count(*) FILTER (WHERE owner = 'competitor')::int AS competitor,
                     count(*) FILTER (WHERE owner = 'other')::int AS other
                FROM citation_records GROUP BY result_id) c
       WHERE p.result_id = c.result_id`);
    await q.query(`
      CREATE TABLE citation_daily_rollups (
        organization_id bigint NOT NULL,
        brand_id bigint NOT NULL,
        day date NOT NULL,
        provider text NOT NULL,
        country text NOT NULL,
        language text NOT NULL,
        answers integer NOT NULL,
        with_citations integer NOT NULL,
        brand_cited integer NOT NULL,
        brand_citations integer NOT NULL,
        competitor_citations integer NOT NULL,
        other_citations integer NOT NULL,
        PRIMARY KEY (brand_id, day, provider, country, language)
      )`);
    await q.query(`
      INSERT INTO citation_daily_rollups (organization_id, brand_id, day, provider, country, language, answers, with_citations, brand_cited, brand_citations, competitor_citations, other_citations)
      SELECT min(organization_id), brand_id, day, provider, coalesce(country, ''), coalesce(language, ''), count(*), count(*) FILTER (WHERE citations > 0), count(*) FILTER (WHERE brand_cited),
             sum(brand_citations), sum(competitor_citations), sum(other_citations)
        FROM prompt_answers
       GROUP BY brand_id, day, provider, coalesce(country, ''), coalesce(language, '')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE citation_daily_rollups');
    await q.query('ALTER TABLE prompt_answers DROP COLUMN brand_citations, DROP COLUMN competitor_citations, DROP COLUMN other_citations');
  }
}
