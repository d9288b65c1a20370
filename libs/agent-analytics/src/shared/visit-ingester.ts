import { Injectable } from '@nestjs/common';
import { InjectConfig } from '@libs/config';
import { TenancyRepository, type TenantScope } from '@libs/tenancy';
import { AGENT_ANALYTICS_CONFIG, type AgentAnalyticsConfig } from '../agent-analytics.config';
import type { BotEntry } from '../domain/bot-catalogue';
import { aiReferralSource, BotClassifier, utmAiSource } from '../domain/classify';
import { detachVisit, ownString, type Visit } from '../domain/visit';
import type { RangeTable } from './bot-ranges';
import { BotVerifier } from './bot-verifier';
import { SiteRobots } from './site-robots';
import type { BotVisitRow, ReferralRow } from './visit-store';

/**
 * A visit as the service keeps it: a bot visit's row, with `settle` when its verification or its
 * robots.txt verdict must be looked up first (call it, then store the row), or an AI referral.
 */
export type Kept = { bot: BotVisitRow; settle: (() => Promise<void>) | null } | { referral: ReferralRow };

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
    readonly verifier: BotVerifier,
    readonly robots: SiteRobots,
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
    return visit.at < this.keptFrom(now) ? `the visit is older than the retention period (${this.config.retentionDays} days)` : null;
  }

  /** The earliest instant of a visit not too old at `now` (see tooOld). */
  keptFrom(now: number): number {
    return now - this.config.retentionDays * DAY_MS;
  }

  /**
   * Whether a visit within retention is kept: false for one neither from a catalogue agent nor sent
   * by an AI assistant (`Intake.keep` gives null: it is only counted).
   */
  concerns(visit: Visit): boolean {
    if (this.botOf(visit)) return true;
    return (aiReferralSource(visit.referer) ?? utmAiSource(visit.path)) !== null;
  }

  /** One tenant's intake: its brand domains and the published ranges, taken once (`renew` takes them again). */
  async intake(scope: TenantScope): Promise<Intake> {
    const [domains, ranges] = await Promise.all([this.brandDomains(scope), this.verifier.ranges.current()]);
    return new Intake(this, scope, domains, ranges);
  }

  /** What an intake needs again after a while: the brand domains (cached a minute) and the ranges (reloaded when old). */
  async renew(scope: TenantScope): Promise<[{ domain: string; brandId: number }[], RangeTable]> {
    return Promise.all([this.brandDomains(scope), this.verifier.ranges.current()]);
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

/**
 * The visits of one tenant: each within retention becomes a bot row, an AI referral, or nothing
 * (neither: only counted). A bot row is judged at once when nothing must be looked up (no signature
 * to check, reverse DNS not needed or already answered for the address, the site's robots.txt read);
 * otherwise its `settle` looks it up. The brand of a host is looked up once per host.
 */
export class Intake {
  private readonly brands = new Map<string, number | null>();

  constructor(
    private readonly ingester: VisitIngester,
    private readonly scope: TenantScope,
    private domains: { domain: string; brandId: number }[],
    private ranges: RangeTable,
  ) {}

  async renew(): Promise<void> {
    const [domains, ranges] = await this.ingester.renew(this.scope);
    if (domains !== this.domains) this.brands.clear();
    this.domains = domains;
    this.ranges = ranges;
  }

  keep(visit: Visit): Kept | null {
    const bot = this.ingester.botOf(visit);
    const brandId = this.brandOf(visit.host);
    if (!bot) {
      const source = aiReferralSource(visit.referer) ?? utmAiSource(visit.path);
      return source ? { referral: { organizationId: this.scope.organizationId, brandId, at: visit.at, host: visit.host, source, path: visit.path } } : null;
    }
    const { verifier, robots } = this.ingester;
    const verdict = verifier.verifyNow(bot, visit, this.ranges);
    const siteRobots = brandId === null ? null : robots.known(visit.host);
    const now = verdict !== null && siteRobots !== undefined;
    // A row that waits for a lookup outlives the text it was read from: it gets strings of its own.
    const v = now ? visit : detachVisit(visit);
    const row: BotVisitRow = {
      organizationId: this.scope.organizationId,
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
      verification: verdict?.verification ?? 'unverifiable',
      verifiedBy: verdict?.verifiedBy ?? null,
      robotsDisallowed: brandId === null || siteRobots === undefined ? null : SiteRobots.disallowed(siteRobots, v.host, v.path, bot.tokens[0]),
    };
    if (now) return { bot: row, settle: null };
    const ranges = this.ranges;
    const settle = async () => {
      const result = verdict ?? (await verifier.verify(bot, v, ranges));
      row.verification = result.verification;
      row.verifiedBy = result.verifiedBy;
      if (brandId !== null) row.robotsDisallowed = SiteRobots.disallowed(await robots.of(v.host), v.host, v.path, bot.tokens[0]);
    };
    return { bot: row, settle };
  }

  private brandOf(host: string): number | null {
    let brand = this.brands.get(host);
    if (brand === undefined) {
      if (this.brands.size >= 10_000) this.brands.clear();
      brand = brandOf(this.domains, host);
      this.brands.set(ownString(host), brand);
    }
    return brand;
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
