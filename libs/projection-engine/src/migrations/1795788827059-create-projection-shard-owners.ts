import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Who owns each (projector group, shard) unit now, and since when (issue 34: `projections shards`). */
export class CreateProjectionShardOwners1795788827059 implements MigrationInterface {
  name = 'CreateProjectionShardOwners1795788827059';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE projection_shard_owners (
        group_name text NOT NULL,
        shard integer NOT NULL,
        shard_count integer NOT NULL,
        owner text,
        since timestamptz,
        PRIMARY KEY (group_name, shard)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE projection_shard_owners');
  }
}
