import { GuardedFetcher, resolverLookup, type FetchFailure, type FetchResult } from '@libs/egress';
import type { Redis } from 'ioredis';
import { pageFailure, RobotsRules, type PageFailure, type RobotsTxt } from '../domain';
import type { PageAuditsConfig } from '../page-audits.config';
import { HostPacer } from './host-pacer';

/** robots.txt is read up to 500 KiB (RFC 9309 §2.5). */
const ROBOTS_MAX_BYTES = 500 * 1024;
/** Sitemaps are at most 50 MB uncompressed (sitemaps.org). */
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;
/** The longest Crawl-delay honoured (seconds). */
const MAX_CRAWL_DELAY_S = 60;

/** Fetch failures that mean the site itself cannot be reached: every URL of it would fail the same way. */
const UNREACHABLE = new Set<FetchFailure['kind']>(['address_not_allowed', 'name_not_resolved', 'connection_refused', 'connection_failed', 'tls_error', 'timeout']);

/** Which hosts an audit may reach: the brand's domains and their subdomains (`key` tells the robots cache apart per rule). */
export interface HostRule {
  key: string;
  allows: (hostname: string) => boolean;
}

/**
 * A fetch failure as a page's (or a sitemap's) public reason: the egress guard's stable code with
 * its host-free sentence, `outside_brand_domains` for a redirect off the brand's domains.
 */
export function fetchFailure(res: FetchFailure, config: Pick<PageAuditsConfig, 'timeoutMs' | 'maxBytes'>, maxBytes = config.maxBytes): PageFailure {
  switch (res.kind) {
    case 'host_not_allowed':
      return pageFailure.redirectedOutside();
    case 'timeout':
      return { code: 'timeout', message: `timed out after ${config.timeoutMs} ms${res.redirects.length ? ' (after a redirect)' : ''}` };
    case 'too_large':
      return { code: 'too_large', message: `too large: more than ${maxBytes} bytes` };
    default:
      return { code: res.kind, message: res.message };
  }
}

/**
 * How page audits reach a site: every request through the egress guard (GuardedFetcher; names
 * resolved by PAGE_AUDIT_DNS_SERVERS when set), only to hosts the audit's rule allows (redirects
 * included), paced per host across workers (HostPacer; a site's Crawl-delay for our agent slows
 * it further), with robots.txt read once per site and rule and kept for PAGE_AUDIT_ROBOTS_CACHE_MS.
 */
export class SiteFetcher {
  private readonly fetcher: GuardedFetcher;
  private readonly pacer: HostPacer;
  private readonly robots = new Map<string, { at: number; rules: Promise<RobotsRules> }>();

  constructor(
    private readonly config: PageAuditsConfig,
    redis: Redis,
  ) {
    const lookup = config.dnsServers ? resolverLookup(config.dnsServers, Math.min(config.timeoutMs, 5000)) : undefined;
    this.fetcher = new GuardedFetcher({ userAgent: config.userAgent, allow: config.allowed, lookup });
    this.pacer = new HostPacer(redis);
  }

  close(): void {
    this.fetcher.close();
  }

  /** The site's robots rules (fetched, or from this worker's cache). */
  rules(origin: string, hosts: HostRule): Promise<RobotsRules> {
    const key = `${hosts.key} ${origin}`;
    const cached = this.robots.get(key);
    if (cached && Date.now() - cached.at < this.config.robotsCacheMs) return cached.rules;
    const rules = this.fetchRobots(origin, hosts);
    if (this.robots.size > 10_000) this.robots.clear();
    this.robots.set(key, { at: Date.now(), rules });
    return rules;
  }

  private async fetchRobots(origin: string, hosts: HostRule): Promise<RobotsRules> {
    const url = `${origin}/robots.txt`;
    const res = await this.paced(url, { maxBytes: ROBOTS_MAX_BYTES, crawlDelay: null, hosts });
    let robots: RobotsTxt;
    if (!res.ok) {
      const why = fetchFailure(res, this.config, ROBOTS_MAX_BYTES);
      robots = { state: 'unavailable', code: why.code, reason: why.message, unreachable: UNREACHABLE.has(res.kind) && res.redirects.length === 0 };
    } else if (res.status >= 200 && res.status < 300) robots = { state: 'found', text: res.body.toString('utf8') };
    else if (res.status >= 400 && res.status < 500) robots = { state: 'missing' };
    else robots = { state: 'unavailable', code: `http_${res.status}`, reason: `answered HTTP ${res.status}`, unreachable: false };
    return new RobotsRules(url, robots);
  }

  /** GET `url` at the host's pace (and its Crawl-delay for our agent), within the audit's hosts. */
  async paced(url: string, o: { maxBytes: number; crawlDelay: number | null; hosts: HostRule; headers?: Record<string, string> }): Promise<FetchResult> {
    const host = new URL(url).host;
    const interval = Math.max(1000 / this.config.hostRequestsPerSecond, Math.min(o.crawlDelay ?? 0, MAX_CRAWL_DELAY_S) * 1000);
    await this.pacer.turn(host, interval);
    return this.fetcher.get({ url, headers: o.headers, maxBytes: o.maxBytes, timeoutMs: this.config.timeoutMs, allowHost: o.hosts.allows });
  }
}
