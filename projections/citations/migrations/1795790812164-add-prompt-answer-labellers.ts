import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who decided the brand's sentiment label of each answer in `prompt_answers` (issue 32): its
 * labeller (`judge:<provider>/<model>` or `model:<engineVersion>`, null without a label) and the
 * judge's outcome (`labelled`, `fallback`, or null when never judged), so prompt insights count
 * their answers per labeller as the sentiment figures do.
 */
export class AddPromptAnswerLabellers1795790812164 implements MigrationInterface {
  name = 'AddPromptAnswerLabellers1795790812164';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE prompt_answers ADD COLUMN brand_labeller text, ADD COLUMN judge_outcome text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE prompt_answers DROP COLUMN brand_labeller, DROP COLUMN judge_outcome');
  }
}
