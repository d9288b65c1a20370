/**
 * The reads other concerns make of the channels' daily rows (issue 30: the SQL stays with the
 * tables' owner; a consumer runs the statement on its own connection and maps the rows to its types).
 */

/** A statement and its parameters. */
export interface ChannelFactsStatement {
  text: string;
  params: unknown[];
}

/** A row of `channelWindowFacts`: a channel kind's rows and sums (numbers as text, null: no value) in one window. */
export interface ChannelWindowFactRow {
  channel: string;
  side: 'before' | 'after';
  rows: number;
  ai_sessions: string | null;
  conversions: string | null;
  revenue: string | null;
}

/** A brand's daily metric rows (`channel_metrics_daily`) summed per channel kind in two windows of days (read apart: they may overlap). */
export function channelWindowFacts(organizationId: number, brandId: number, before: { from: string; to: string }, after: { from: string; to: string }): ChannelFactsStatement {
  return {
    text: `SELECT channel, w.side, count(*)::int AS rows,
              sum(ai_sessions)::text AS ai_sessions, sum(conversions)::text AS conversions, sum(revenue)::text AS revenue
         FROM (VALUES ('before', $3::date, $4::date), ('after', $5::date, $6::date)) AS w(side, from_day, to_day)
         JOIN channel_metrics_daily m ON m.organization_id = $1 AND m.brand_id = $2 AND m.day BETWEEN w.from_day AND w.to_day
        GROUP BY 1, 2 ORDER BY 1, 2`,
    params: [organizationId, brandId, before.from, before.to, after.from, after.to],
  };
}

/** A brand's Search Console queries (`channel_content_daily` of `search_console` channels) over days, most impressions first, a page of them. */
export function searchConsoleQueryFacts(f: { organizationId: number; brandId: number; start: string; end: string }, limit: number, offset: number): ChannelFactsStatement {
  return {
    text: `SELECT query, coalesce(sum(impressions), 0)::bigint AS impressions, coalesce(sum(clicks), 0)::bigint AS clicks,
                  min(day)::text AS first_day, max(day)::text AS last_day
             FROM channel_content_daily
            WHERE organization_id = $1 AND brand_id = $2 AND day BETWEEN $3::date AND $4::date AND channel = 'search_console' AND query <> ''
            GROUP BY query ORDER BY impressions DESC, clicks DESC, query LIMIT $5 OFFSET $6`,
    params: [f.organizationId, f.brandId, f.start, f.end, limit, offset],
  };
}
