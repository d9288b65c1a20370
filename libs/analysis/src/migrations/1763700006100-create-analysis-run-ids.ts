import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Integer ids of analysis runs and audit requests (their history is events; the ids come from here). */
export class CreateAnalysisRunIds1763700006100 implements MigrationInterface {
  name = 'CreateAnalysisRunIds1763700006100';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE SEQUENCE analysis_run_ids');
    await q.query('CREATE SEQUENCE audit_request_ids');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP SEQUENCE audit_request_ids, analysis_run_ids');
  }
}
