import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Read models of the opportunity queue: the list, the KPI counts and the outcomes; and the id sequence. */
export class CreateOpportunityReadModels1763700002000 implements MigrationInterface {
  name = 'CreateOpportunityReadModels1763700002000';

  async up(q: QueryRunner): Promise<void> {
    // Ids are taken before the first append (expected revision: no stream).
    await q.query(`CREATE SEQUENCE opportunity_ids`);
    await q.query(`
      CREATE TABLE opportunities (
        id bigint PRIMARY KEY,
        organization_id bigint NOT NULL,
        brand_id bigint NOT NULL,
        client_id bigint,
        type text NOT NULL,
        severity text NOT NULL,
        severity_rank smallint NOT NULL,
        status text NOT NULL,
        terminal boolean NOT NULL,
        title text NOT NULL,
        description text,
        fingerprint text NOT NULL,
        source text NOT NULL,
        evidence jsonb NOT NULL,
        owner text,
        sla_policy text NOT NULL,
        due_at timestamptz NOT NULL,
        verification_status text,
        verification_checked_at timestamptz,
        verification_details jsonb,
        outcome jsonb,
        recurrence_of bigint,
        detected_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        resolved_at timestamptz,
        version integer NOT NULL
      )`);
    // Every list filter and sort leads with the tenant; the default list is non-terminal, newest first.
    await q.query(`CREATE INDEX opportunities_list_idx ON opportunities (organization_id, terminal, detected_at DESC, id DESC)`);
    await q.query(`CREATE INDEX opportunities_status_severity_idx ON opportunities (organization_id, status, severity, detected_at DESC, id DESC)`);
    await q.query(`CREATE INDEX opportunities_brand_idx ON opportunities (organization_id, brand_id, terminal, detected_at DESC)`);
    await q.query(`CREATE INDEX opportunities_type_idx ON opportunities (organization_id, type, detected_at DESC)`);
    await q.query(`CREATE INDEX opportunities_updated_idx ON opportunities (organization_id, updated_at DESC, id DESC)`);
    await q.query(`CREATE INDEX opportunities_severity_rank_idx ON opportunities (organization_id, severity_rank DESC, detected_at DESC, id DESC)`);
    await q.query(`CREATE INDEX opportunities_due_idx ON opportunities (organization_id, due_at) WHERE NOT terminal`);
    await q.query(`CREATE INDEX opportunities_fingerprint_idx ON opportunities (organization_id, fingerprint)`);
    await q.query(`CREATE INDEX opportunities_recent_idx ON opportunities (organization_id, detected_at DESC, id DESC)`);
    // The list's totals, kept by the same projector in the same transaction as the rows: a page and
    // its total always agree, and a total costs a few index rows, not a count over the matches.
    await q.query(`
      CREATE TABLE opportunity_list_counts (
        organization_id bigint NOT NULL,
        client_id bigint NOT NULL DEFAULT 0,
        brand_id bigint NOT NULL,
        type text NOT NULL,
        status text NOT NULL,
        severity text NOT NULL,
        count bigint NOT NULL,
        PRIMARY KEY (organization_id, client_id, brand_id, type, status, severity)
      )`);
    await q.query(`
      CREATE TABLE opportunity_counts (
        organization_id bigint NOT NULL,
        brand_id bigint NOT NULL,
        status text NOT NULL,
        severity text NOT NULL,
        count bigint NOT NULL,
        PRIMARY KEY (organization_id, brand_id, status, severity)
      )`);
    await q.query(`
      CREATE TABLE opportunity_count_members (
        id bigint PRIMARY KEY,
        organization_id bigint NOT NULL,
        brand_id bigint NOT NULL,
        severity text NOT NULL,
        status text NOT NULL,
        due_day date NOT NULL
      )`);
    // Open opportunities by the UTC day they fall due: the SLA breach total at any moment is the
    // sum of the days before today plus the rows of today already past due.
    await q.query(`
      CREATE TABLE opportunity_due_counts (
        organization_id bigint NOT NULL,
        brand_id bigint NOT NULL,
        due_day date NOT NULL,
        count bigint NOT NULL,
        PRIMARY KEY (organization_id, brand_id, due_day)
      )`);
    await q.query(`
      CREATE TABLE opportunity_outcome_facts (
        id bigint PRIMARY KEY,
        organization_id bigint NOT NULL,
        brand_id bigint NOT NULL,
        type text NOT NULL,
        severity text NOT NULL,
        title text NOT NULL
      )`);
    await q.query(`
      CREATE TABLE opportunity_outcomes (
        opportunity_id bigint PRIMARY KEY,
        organization_id bigint NOT NULL,
        brand_id bigint NOT NULL,
        type text NOT NULL,
        severity text NOT NULL,
        title text NOT NULL,
        resolved_at timestamptz NOT NULL,
        finalized_at timestamptz,
        citation_rate_before double precision,
        citation_rate_after double precision,
        ai_traffic_before double precision,
        ai_traffic_after double precision,
        conversions double precision,
        revenue double precision,
        currency text
      )`);
    await q.query(`CREATE INDEX opportunity_outcomes_window_idx ON opportunity_outcomes (organization_id, resolved_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE opportunity_outcomes, opportunity_outcome_facts, opportunity_count_members, opportunity_due_counts, opportunity_counts, opportunity_list_counts, opportunities');
    await q.query('DROP SEQUENCE opportunity_ids');
  }
}
