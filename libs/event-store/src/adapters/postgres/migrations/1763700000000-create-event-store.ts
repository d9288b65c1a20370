import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The PostgreSQL event store: one row per stream (its revision) and the append-only events table. */
export class CreateEventStore1763700000000 implements MigrationInterface {
  name = 'CreateEventStore1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE event_streams (
        stream_id text PRIMARY KEY,
        revision bigint NOT NULL CHECK (revision >= 0)
      )`);
    await q.query(`
      CREATE TABLE events (
        global_position bigint GENERATED ALWAYS AS IDENTITY,
        transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
        stream_id text NOT NULL,
        stream_position bigint NOT NULL CHECK (stream_position >= 0),
        event_id uuid NOT NULL,
        type text NOT NULL,
        schema_version integer NOT NULL DEFAULT 1,
        data jsonb NOT NULL,
        metadata jsonb NOT NULL DEFAULT '{}',
        recorded_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT events_pkey PRIMARY KEY (stream_id, stream_position),
        CONSTRAINT events_event_id_key UNIQUE (event_id)
      )`);
    // The global feed's order; also unique (an identity value is used once).
    await q.query(`CREATE UNIQUE INDEX events_feed_idx ON events (transaction_id, global_position)`);
    // Nothing may change or remove a recorded event.
    await q.query(`
      CREATE FUNCTION events_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'events are append-only (% refused)', TG_OP;
      END $$`);
    await q.query(`
      CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
      FOR EACH ROW EXECUTE FUNCTION events_are_append_only()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE events');
    await q.query('DROP FUNCTION events_are_append_only');
    await q.query('DROP TABLE event_streams');
  }
}
