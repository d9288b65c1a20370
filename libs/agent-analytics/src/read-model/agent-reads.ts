import { Injectable, Optional } from '@nestjs/common';
import { ReadReplica, lagTolerantPool } from '@libs/database';
import { DataSource } from 'typeorm';
import { addDays } from '@libs/metrics';
import { preparedQuery } from '@libs/sql';
import type { AgentFilter } from '../shared/agent-scope';

export interface Statement {
  text: string;
  params: unknown[];
}

/** $1 organisation, $2..$3 days, $4 brands (null: all), $5 host (null: all): the rollups' filter. */
const ROLLUP_WHERE = `organization_id = $1 AND day BETWEEN $2::date AND $3::date AND ($4::bigint[] IS NULL OR brand_id = ANY($4::bigint[])) AND ($5::text IS NULL OR host = $5)`;
const rollupParams = (f: AgentFilter) => [f.organizationId, f.start, f.end, f.brandIds, f.host];

/** The statements behind every read (also run by the benchmark's bare server). */
export const AGENT_SQL = {
  overview: (f: AgentFilter): Statement => ({
    text: `SELECT
        (SELECT json_build_object('visits', coalesce(sum(visits), 0), 'verified', coalesce(sum(visits) FILTER (WHERE verification = 'verified'), 0),
           'spoofed', coalesce(sum(visits) FILTER (WHERE verification = 'spoofed'), 0), 'unverifiable', coalesce(sum(visits) FILTER (WHERE verification = 'unverifiable'), 0),
           'bots', count(DISTINCT bot_name)) FROM agent_bot_daily WHERE ${ROLLUP_WHERE}) AS bots,
        (SELECT count(*) FROM (SELECT DISTINCT host, path FROM agent_page_totals_daily WHERE ${ROLLUP_WHERE}) p) AS pages,
        (SELECT coalesce(sum(visits), 0) FROM ai_referral_daily WHERE ${ROLLUP_WHERE}) AS referrals`,
    params: rollupParams(f),
  }),
  bots: (f: AgentFilter): Statement => ({
    text: `SELECT bot_name, min(category) AS category, sum(visits)::bigint AS visits,
        coalesce(sum(visits) FILTER (WHERE verification = 'verified'), 0)::bigint AS verified,
        coalesce(sum(visits) FILTER (WHERE verification = 'spoofed'), 0)::bigint AS spoofed,
        coalesce(sum(visits) FILTER (WHERE verification = 'unverifiable'), 0)::bigint AS unverifiable,
        sum(error_visits)::bigint AS errors, sum(disallowed_visits)::bigint AS disallowed, max(last_seen) AS last_seen
      FROM agent_bot_daily WHERE ${ROLLUP_WHERE} GROUP BY bot_name ORDER BY visits DESC, bot_name`,
    params: rollupParams(f),
  }),
  pages: (f: AgentFilter, limit: number): Statement => ({
    // The top pages from the page totals, then for each of them its rows of the per-bot rollup (by
    // page: an index), summed per bot within the page: a few hundred rows hashed at a time instead
    // of every top page's rows sorted together.
    text: `WITH top AS (
        SELECT host, path, sum(visits)::bigint AS total FROM agent_page_totals_daily WHERE ${ROLLUP_WHERE}
         GROUP BY host, path ORDER BY total DESC, host, path LIMIT $6)
      SELECT t.host, t.path, b.bot_name, b.visits, b.errors, b.disallowed, t.total
        FROM (SELECT top.*, row_number() OVER (ORDER BY total DESC, host, path) AS rank FROM top) t
        CROSS JOIN LATERAL (
          SELECT d.bot_name, sum(d.visits)::bigint AS visits, coalesce(sum(d.visits) FILTER (WHERE d.status >= 400), 0)::bigint AS errors, sum(d.disallowed_visits)::bigint AS disallowed
            FROM agent_page_daily d
           WHERE d.organization_id = $1 AND d.host = t.host AND d.path = t.path AND d.day BETWEEN $2::date AND $3::date
             AND ($4::bigint[] IS NULL OR d.brand_id = ANY($4::bigint[]))
           GROUP BY d.bot_name) b
       ORDER BY t.rank, b.visits DESC, b.bot_name`,
    params: [...rollupParams(f), limit],
  }),
  trends: (f: AgentFilter): Statement => ({
    text: `SELECT to_char(day, 'YYYY-MM-DD') AS day, category, verification, sum(visits)::bigint AS visits
      FROM agent_bot_daily WHERE ${ROLLUP_WHERE} GROUP BY day, category, verification`,
    params: rollupParams(f),
  }),
  visits: (f: AgentFilter, q: { botName: string | null; path: string | null; hostPattern: string | null; limit: number; offset: number }): { rows: Statement; total: Statement } => {
    const where = `organization_id = $1 AND visited_at >= $2::timestamptz AND visited_at < $3::timestamptz AND ($4::bigint[] IS NULL OR brand_id = ANY($4::bigint[]))
      AND ($5::text IS NULL OR host = $5) AND ($6::text IS NULL OR bot_name = $6) AND ($7::text IS NULL OR path LIKE $7) AND ($8::text IS NULL OR host LIKE $8)`;
    const params = [f.organizationId, `${f.start}T00:00:00Z`, `${addDays(f.end, 1)}T00:00:00Z`, f.brandIds, f.host, q.botName, q.path, q.hostPattern];
    return {
      rows: {
        text: `SELECT visited_at, brand_id, host, path, method, status, host(ip) AS ip, user_agent, referer, bytes, duration_ms, bot_name, category, verification, verified_by, robots_disallowed
          FROM bot_visits WHERE ${where} ORDER BY visited_at DESC, path LIMIT $9 OFFSET $10`,
        params: [...params, q.limit, q.offset],
      },
      total: { text: `SELECT count(*)::bigint AS total FROM bot_visits WHERE ${where}`, params },
    };
  },
};

export type Row = Record<string, unknown>;

/** Runs the agent-analytics statements as named statements on the pool. */
@Injectable()
export class AgentReads {
  constructor(
    private readonly dataSource: DataSource,
    @Optional() private readonly replica?: ReadReplica,
  ) {}

  run(s: Statement): Promise<Row[]> {
    return preparedQuery<Row>(lagTolerantPool(this.dataSource, this.replica), s.text, s.params);
  }
}
