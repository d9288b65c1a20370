/**
 * The reads other concerns make of agent analytics' rollups (issue 30: the SQL stays with the
 * tables' owner; a consumer runs the statement on its own connection and maps the rows to its types).
 */

/** A statement and its parameters. */
export interface FactsStatement {
  text: string;
  params: unknown[];
}

/** A row of `botDailyFacts`: visits and visits answered 4xx/5xx per brand, day, host and agent (numbers as text). */
export interface BotDailyFactRow {
  organization_id: string;
  brand_id: string;
  day: string;
  host: string;
  bot_name: string;
  category: string;
  visits: string;
  error_visits: string;
}

/**
 * The daily bot rollup (`agent_bot_daily`) of the last `days` days (today included), per brand,
 * host, day and agent. Spoofed visits (a user agent claiming a bot from outside its operator's
 * ranges) are left out: a site refusing impostors is not blocking the engine.
 */
export function botDailyFacts(days: number): FactsStatement {
  return {
    text: `SELECT organization_id, brand_id, to_char(day, 'YYYY-MM-DD') AS day, host, bot_name, min(category) AS category,
              sum(visits)::text AS visits, sum(error_visits)::text AS error_visits
         FROM agent_bot_daily
        WHERE day > (now() AT TIME ZONE 'UTC')::date - $1::int AND verification <> 'spoofed'
        GROUP BY organization_id, brand_id, day, host, bot_name
        ORDER BY organization_id, brand_id`,
    params: [days],
  };
}

/** Whether the page rollup exists (a deployment may run page audits without agent analytics' tables): one row, `present`. */
export const PAGE_ROLLUP_PRESENT: FactsStatement = { text: `SELECT to_regclass('agent_page_daily') IS NOT NULL AS present`, params: [] };

/** A row of `pageBotVisitFacts`: one agent's visits of a page, those answered 4xx/5xx, and those statuses. */
export interface PageBotVisitFactRow {
  bot: string;
  visits: number;
  errors: number | null;
  statuses: number[] | null;
}

/** AI agents' visits of a page (host, and its path with or without the query) over the last `days` days, from the daily page rollup (`agent_page_daily`). */
export function pageBotVisitFacts(organizationId: number, brandId: number, host: string, paths: readonly string[], days: number): FactsStatement {
  return {
    text: `SELECT bot_name AS bot, sum(visits)::int AS visits, (sum(visits) FILTER (WHERE status >= 400))::int AS errors,
         array_agg(DISTINCT status ORDER BY status) FILTER (WHERE status >= 400) AS statuses
       FROM agent_page_daily
       WHERE organization_id = $1 AND brand_id = $2 AND host = $3 AND path = ANY($4::text[]) AND day >= (now() AT TIME ZONE 'UTC')::date - $5::int
       GROUP BY bot_name ORDER BY bot_name`,
    params: [organizationId, brandId, host, [...paths], days],
  };
}

/** A row of `aiReferralFacts`: human visits a page got from an AI assistant on a day. */
export interface AiReferralFactRow {
  day: string;
  brand_id: string;
  host: string;
  source: string;
  path: string;
  visits: string;
}

/**
 * Human visits from AI assistants (`ai_referral_daily`) to the given brands of the organisation (a
 * client's: the caller reads them from tenancy), per day, brand, host, assistant and page.
 */
export function aiReferralFacts(organizationId: number, brandIds: readonly number[], start: string, end: string): FactsStatement {
  return {
    text: `SELECT to_char(r.day, 'YYYY-MM-DD') AS day, r.brand_id, r.host, r.source, r.path, sum(r.visits) AS visits
         FROM ai_referral_daily r
        WHERE r.organization_id = $1 AND r.brand_id = ANY($2::bigint[]) AND r.day BETWEEN $3::date AND $4::date
        GROUP BY 1, 2, 3, 4, 5`,
    params: [organizationId, [...brandIds], start, end],
  };
}
