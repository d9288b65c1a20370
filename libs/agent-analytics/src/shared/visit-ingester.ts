import { Injectable } from '@nestjs/common';
import { InjectConfig } from '@libs/config';
import { TenancyRepository, type TenantScope } from '@libs/tenancy';
import { AGENT_ANALYTICS_CONFIG, type AgentAnalyticsConfig } from '../agent-analytics.config';
import type { BotEntry } from '../domain/bot-catalogue';
import { aiReferralSource, BotClassifier, utmAiSource } from '../domain/classify';
import type { Visit } from '../domain/visit';
import { BotVerifier } from './bot-verifier';
import { SiteRobots } from './site-robots';
import type { BotVisitRow, ReferralRow } from './visit-store';

/** A batch classified and verified, ready to store. */
export interface PreparedBatch {
  bots: BotVisitRow[];
  referrals: ReferralRow[];
  /** Visits neither from a catalogue agent nor sent by an AI assistant (not stored). */
  ignored: number;
  /** Visits refused (by their index in the batch), with the reason. */
  rejected: { index: number; reason: string }[];
}

const DAY_MS = 86_400_000;

/**
 * One record whatever the way in (API, CLI logs, middleware; DESIGN §13.2): each visit is
 * classified from its user agent (or the agent its Web Bot Auth signature names), verified,
 * given the brand whose domain (or a subdomain of it) is its host, checked against the site's
 * robots.txt, or kept as an AI referral when a person arrives from an AI assistant.
 */
@Injectable()
export class VisitIngester {
  readonly classifier = new BotClassifier();
  private readonly brandCache = new Map<string, { at: number; domains: Promise<{ domain: string; brandId: number }[]> }>();

  constructor(
    private readonly tenancy: TenancyRepository,
    private readonly verifier: BotVerifier,
    private readonly robots: SiteRobots,
    @InjectConfig(AGENT_ANALYTICS_CONFIG) private readonly config: AgentAnalyticsConfig,
  ) {}

  /** The agent a visit comes from: its user agent, or the directory its signature names. */
  botOf(visit: Visit): BotEntry | null {
    const byAgent = this.classifier.classify(visit.userAgent);
    if (byAgent) return byAgent;
    const signer = visit.headers?.['signature-agent'];
    if (!signer) return null;
    const host = /^"?https?:\/\/([^/"]+)/i.exec(signer)?.[1]?.toLowerCase();
    if (!host) return null;
    return this.classifier.entries.find((e) => e.category === 'agent' && e.verification.keyDirectory && new URL(e.verification.keyDirectory).host === host) ?? null;
  }

  /** Why a visit is refused for its age (older than the retention period), or null. */
  tooOld(visit: Visit, now = Date.now()): string | null {
    return visit.at < now - this.config.retentionDays * DAY_MS ? `the visit is older than the retention period (${this.config.retentionDays} days)` : null;
  }

  /**
   * Whether a visit within retention is kept: false for one neither from a catalogue agent nor sent
   * by an AI assistant (`prepare` would only count it as ignored). Streaming ingestion drops those
   * at once, so most of a log's lines are never held in a batch.
   */
  concerns(visit: Visit): boolean {
    if (this.botOf(visit)) return true;
    return (aiReferralSource(visit.referer) ?? utmAiSource(visit.path)) !== null;
  }

  async prepare(scope: TenantScope, visits: readonly Visit[], now = Date.now()): Promise<PreparedBatch> {
    const brands = await this.brandDomains(scope);
    const out: PreparedBatch = { bots: [], referrals: [], ignored: 0, rejected: [] };
    const pending: Promise<void>[] = [];
    for (let i = 0; i < visits.length; i++) {
      const v = visits[i];
      const old = this.tooOld(v, now);
      if (old) {
        out.rejected.push({ index: i, reason: old });
        continue;
      }
      const bot = this.botOf(v);
      const brandId = brandOf(brands, v.host);
      if (bot) {
        const row: BotVisitRow = {
          organizationId: scope.organizationId,
          brandId,
          at: v.at,
          host: v.host,
          path: v.path,
          method: v.method,
          status: v.status,
          ip: v.ip,
          userAgent: v.userAgent,
          referer: v.referer,
          bytes: v.bytes,
          durationMs: v.durationMs,
          botName: bot.name,
          category: bot.category,
          verification: 'unverifiable',
          verifiedBy: null,
          robotsDisallowed: null,
        };
        out.bots.push(row);
        pending.push(
          (async () => {
            const result = await this.verifier.verify(bot, v);
            row.verification = result.verification;
            row.verifiedBy = result.verifiedBy;
            if (brandId !== null) row.robotsDisallowed = SiteRobots.disallowed(await this.robots.of(v.host), v.host, v.path, bot.tokens[0]);
          })(),
        );
        continue;
      }
      const source = aiReferralSource(v.referer) ?? utmAiSource(v.path);
      if (source) out.referrals.push({ organizationId: scope.organizationId, brandId, at: v.at, host: v.host, source, path: v.path });
      else out.ignored++;
    }
    await Promise.all(pending);
    return out;
  }

  /** The organisation's brand domains (the caller's client's brands for a client-bound credential), cached a minute. */
  private brandDomains(scope: TenantScope): Promise<{ domain: string; brandId: number }[]> {
    const key = `${scope.organizationId}:${scope.clientId ?? ''}`;
    const hit = this.brandCache.get(key);
    if (hit && Date.now() - hit.at < 60_000) return hit.domains;
    const domains = this.tenancy.listBrands(scope).then((brands) => brands.flatMap((b) => [b.domain, ...b.extraDomains].map((domain) => ({ domain, brandId: b.id }))));
    this.brandCache.set(key, { at: Date.now(), domains });
    domains.catch(() => this.brandCache.delete(key));
    return domains;
  }
}

/** The brand whose domain is the host or a parent of it (the longest such domain wins), or null. */
export function brandOf(domains: readonly { domain: string; brandId: number }[], host: string): number | null {
  let best: { domain: string; brandId: number } | null = null;
  for (const d of domains) {
    if ((host === d.domain || host.endsWith(`.${d.domain}`)) && (!best || d.domain.length > best.domain.length)) best = d;
  }
  return best?.brandId ?? null;
}
