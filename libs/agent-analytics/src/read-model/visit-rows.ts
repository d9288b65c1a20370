import { rate } from '@libs/metrics';
import { botCatalogue } from '../domain/bot-catalogue';
import type { BotVisitDto, CrawlBlockDto } from '../agent-analytics.dto';
import type { Row } from './agent-reads';

const operators = new Map(botCatalogue().map((e) => [e.name, e.operator]));

export const operatorOf = (botName: string): string => operators.get(botName) ?? 'unknown';

/** A bot_visits row as the API gives it. */
export function botVisitOf(r: Row): BotVisitDto {
  const host = r.host as string;
  const path = r.path as string;
  return {
    timestamp: (r.visited_at as Date).toISOString(),
    botName: r.bot_name as string,
    operator: operatorOf(r.bot_name as string),
    category: r.category as string,
    verification: r.verification as string,
    verifiedBy: (r.verified_by as string | null) ?? null,
    brandId: r.brand_id === null ? null : Number(r.brand_id),
    host,
    path,
    url: `https://${host.includes(':') ? `[${host}]` : host}${path}`,
    method: r.method as string,
    status: Number(r.status),
    ip: r.ip as string,
    userAgent: r.user_agent as string,
    referer: (r.referer as string | null) ?? null,
    bytes: r.bytes === null ? null : Number(r.bytes),
    durationMs: r.duration_ms === null ? null : Number(r.duration_ms),
    robotsDisallowed: (r.robots_disallowed as boolean | null) ?? null,
  };
}

export function crawlBlock(visits: number, errors: number, disallowed: number): CrawlBlockDto {
  return { errorShare: rate(errors, visits), disallowedShare: rate(disallowed, visits), errorVisits: errors, disallowedVisits: disallowed };
}
