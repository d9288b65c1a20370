import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 34, part 4, the next step: the brand's row of an answer carries its competitors (entity
 * ids, names, mentioned, in the analysis's order) as arrays, so the detectors' read takes no probe
 * per answer for the competitors' rows; and an index by series (brand, entity, prompt, provider,
 * newest first), so the read takes the newest answers of each prompt × provider through the index
 * instead of windowing all the brand's rows of the horizon. The existing rows are backfilled from
 * the competitors' rows (the projector writes the arrays from now on).
 */
export class AnswerFactsSeriesRead1795796400000 implements MigrationInterface {
  name = 'AnswerFactsSeriesRead1795796400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE answer_facts ADD COLUMN competitor_ids text[], ADD COLUMN competitor_names text[], ADD COLUMN competitor_mentioned boolean[]`);
    await q.query(`
      UPDATE answer_facts b SET competitor_ids = c.ids, competitor_names = c.names, competitor_mentioned = c.mentioned
      FROM (
        SELECT result_id, array_agg(entity_id ORDER BY position) AS ids, array_agg(name ORDER BY position) AS names, array_agg(mentioned ORDER BY position) AS mentioned
        FROM answer_facts WHERE kind = 'competitor' GROUP BY result_id
      ) c
      WHERE b.result_id = c.result_id AND b.entity_id = 'brand-' || b.brand_id`);
    // An answer without competitors: empty arrays on the brand's row (the other rows keep nulls).
    await q.query(`UPDATE answer_facts SET competitor_ids = '{}', competitor_names = '{}', competitor_mentioned = '{}' WHERE entity_id = 'brand-' || brand_id AND competitor_ids IS NULL`);
    await q.query(`DROP INDEX answer_facts_brand_idx`);
    await q.query(`CREATE INDEX answer_facts_series_idx ON answer_facts (brand_id, entity_id, prompt_id, provider, asked_at DESC, result_id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX answer_facts_series_idx`);
    await q.query(`CREATE INDEX answer_facts_brand_idx ON answer_facts (brand_id, entity_id, asked_at) INCLUDE (organization_id)`);
    await q.query(`ALTER TABLE answer_facts DROP COLUMN competitor_ids, DROP COLUMN competitor_names, DROP COLUMN competitor_mentioned`);
  }
}
