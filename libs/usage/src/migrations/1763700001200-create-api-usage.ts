import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API usage per UTC day, credential (subject), route template, method and status class, with a
 * fixed-bucket latency histogram (bounds in libs/usage/src/domain/latency-histogram.ts). Written
 * in batches by the API processes, added to on conflict.
 */
export class CreateApiUsage1763700001200 implements MigrationInterface {
  name = 'CreateApiUsage1763700001200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE api_usage_daily (
        organization_id bigint NOT NULL REFERENCES organizations(id),
        day date NOT NULL,
        subject text NOT NULL,
        key_id bigint,
        method text NOT NULL,
        route text NOT NULL,
        status_class text NOT NULL CHECK (status_class IN ('2xx', '3xx', '4xx', '5xx')),
        requests bigint NOT NULL CHECK (requests >= 0),
        errors bigint NOT NULL CHECK (errors >= 0),
        latency_buckets bigint[] NOT NULL,
        PRIMARY KEY (organization_id, day, subject, route, method, status_class)
      )`);
    await q.query(`CREATE INDEX api_usage_daily_key_idx ON api_usage_daily (organization_id, key_id, day) WHERE key_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE api_usage_daily');
  }
}
