import type { MigrationInterface, QueryRunner } from 'typeorm';

const COUNTERS = ['answers', 'mentioned', 'mentions', 'ranked', 'rank_sum', 'top3', 'positive', 'neutral', 'negative', 'score_sum', 'cited', 'with_citations', 'citations', 'all_citations', 'visibility_sum', 'checkable', 'accurate', 'judged', 'judge_fallbacks'];
const REAL = ['score_sum', 'visibility_sum'];

/**
 * `answer_daily_provider_rollups` (issue 33): `answer_daily_rollups` one grain up, without prompt
 * and query (per brand, day, provider, market and entity), read by the year-long trends. Backfilled
 * from the fine table by the GROUP BY that defines it (see ANSWER_DAILY_PROVIDER_ROLLUPS), so an
 * existing database reads the same figures from the first request; the answer-rollups projector
 * keeps it from then on. The counters as of this migration: a counter added later adds its column here too.
 */
export class CreateAnswerProviderRollups1795800900000 implements MigrationInterface {
  name = 'CreateAnswerProviderRollups1795800900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE answer_daily_provider_rollups (
        organization_id bigint NOT NULL,
        client_id bigint NOT NULL,
        brand_id bigint NOT NULL,
        day date NOT NULL,
        provider text NOT NULL,
        country text NOT NULL,
        language text NOT NULL,
        entity_id text NOT NULL,
        ${COUNTERS.map((c) => `${c} ${REAL.includes(c) ? 'float8' : 'integer'} NOT NULL,`).join('\n        ')}
        PRIMARY KEY (brand_id, day, provider, country, language, entity_id)
      )`);
    await q.query(`
      INSERT INTO answer_daily_provider_rollups (organization_id, client_id, brand_id, day, provider, country, language, entity_id, ${COUNTERS.join(', ')})
      SELECT min(organization_id), min(client_id), brand_id, day, provider, country, language, entity_id, ${COUNTERS.map((c) => `sum(${c})`).join(', ')}
        FROM answer_daily_rollups
       GROUP BY brand_id, day, provider, country, language, entity_id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE answer_daily_provider_rollups');
  }
}
