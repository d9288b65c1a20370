import { GuardedFetcher, type FetchResult } from '@libs/egress';
import type { Redis } from 'ioredis';
import { RobotsRules, type RobotsTxt } from '../domain';
import type { PageAuditsConfig } from '../page-audits.config';
import { HostPacer } from './host-pacer';

/** robots.txt is read up to 500 KiB (RFC 9309 §2.5). */
const ROBOTS_MAX_BYTES = 500 * 1024;
/** Sitemaps are at most 50 MB uncompressed (sitemaps.org). */
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;
/** The longest Crawl-delay honoured (seconds). */
const MAX_CRAWL_DELAY_S = 60;

/**
 * How page audits reach a site: every request through the egress guard (GuardedFetcher), paced
 * per host across workers (HostPacer; a site's Crawl-delay for our agent slows it further), with
 * robots.txt read once per site and kept for PAGE_AUDIT_ROBOTS_CACHE_MS.
 */
export class SiteFetcher {
  private readonly fetcher: GuardedFetcher;
  private readonly pacer: HostPacer;
  private readonly robots = new Map<string, { at: number; rules: Promise<RobotsRules> }>();

  constructor(
    private readonly config: PageAuditsConfig,
    redis: Redis,
  ) {
    this.fetcher = new GuardedFetcher({ userAgent: config.userAgent, allow: config.allowed });
    this.pacer = new HostPacer(redis);
  }

  close(): void {
    this.fetcher.close();
  }

  /** The site's robots rules (fetched, or from this worker's cache). */
  rules(origin: string): Promise<RobotsRules> {
    const cached = this.robots.get(origin);
    if (cached && Date.now() - cached.at < this.config.robotsCacheMs) return cached.rules;
    const rules = this.fetchRobots(origin);
    if (this.robots.size > 10_000) this.robots.clear();
    this.robots.set(origin, { at: Date.now(), rules });
    return rules;
  }

  private async fetchRobots(origin: string): Promise<RobotsRules> {
    const url = `${origin}/robots.txt`;
    const res = await this.paced(url, { maxBytes: ROBOTS_MAX_BYTES, crawlDelay: null });
    let robots: RobotsTxt;
    if (!res.ok) robots = { state: 'unavailable', reason: `${res.kind}: ${res.reason}` };
    else if (res.status >= 200 && res.status < 300) robots = { state: 'found', text: res.body.toString('utf8') };
    else if (res.status >= 400 && res.status < 500) robots = { state: 'missing' };
    else robots = { state: 'unavailable', reason: `HTTP ${res.status}` };
    return new RobotsRules(url, robots);
  }

  /** GET `url` at the host's pace (and its Crawl-delay for our agent). */
  async paced(url: string, o: { maxBytes: number; crawlDelay: number | null; headers?: Record<string, string> }): Promise<FetchResult> {
    const host = new URL(url).host;
    const interval = Math.max(1000 / this.config.hostRequestsPerSecond, Math.min(o.crawlDelay ?? 0, MAX_CRAWL_DELAY_S) * 1000);
    await this.pacer.turn(host, interval);
    return this.fetcher.get({ url, headers: o.headers, maxBytes: o.maxBytes, timeoutMs: this.config.timeoutMs });
  }
}
