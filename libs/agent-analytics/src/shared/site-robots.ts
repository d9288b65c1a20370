import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import robotsParser from 'robots-parser';
import { InjectConfig } from '@libs/config';
import { AGENT_ANALYTICS_CONFIG, type AgentAnalyticsConfig } from '../agent-analytics.config';
import { AgentEgress } from './agent-egress';

type Robots = ReturnType<typeof robotsParser>;
const FRESH_MS = 24 * 3600_000;

/**
 * The robots.txt of registered sites (a host of one of the organisation's brands), read from
 * AGENT_ROBOTS_URL_TEMPLATE at most once a day per host (kept in `agent_site_robots`, shared by
 * every process), to tell whether a bot's visit was to a page the site disallows it.
 * A site without a robots.txt (4xx) allows everything; one that cannot be read (or answers 5xx,
 * or whose address the egress guard refuses) says nothing (null).
 */
@Injectable()
export class SiteRobots {
  private readonly logger = new Logger('SiteRobots');
  private readonly cache = new Map<string, { at: number; robots: Promise<Robots | null>; known?: Robots | null }>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly egress: AgentEgress,
    @InjectConfig(AGENT_ANALYTICS_CONFIG) private readonly config: AgentAnalyticsConfig,
  ) {}

  /** The parsed robots.txt of a host, or null when it is unknown. */
  of(host: string): Promise<Robots | null> {
    const hit = this.cache.get(host);
    if (hit && Date.now() - hit.at < FRESH_MS) return hit.robots;
    const entry: { at: number; robots: Promise<Robots | null>; known?: Robots | null } = { at: Date.now(), robots: Promise.resolve(null) };
    entry.robots = this.load(host)
      .catch((error: Error) => {
        this.logger.warn(`robots.txt of ${host}: ${error.message}`);
        return null;
      })
      .then((robots) => (entry.known = robots));
    this.cache.set(host, entry);
    return entry.robots;
  }

  /** What `of` would give when it is at hand without waiting (read and fresh); undefined when it must be read first. */
  known(host: string): Robots | null | undefined {
    const hit = this.cache.get(host);
    return hit && Date.now() - hit.at < FRESH_MS ? hit.known : undefined;
  }

  /** Whether `path` of `host` is disallowed to `token` (null: unknown). */
  static disallowed(robots: Robots | null, host: string, path: string, token: string): boolean | null {
    if (!robots) return null;
    const allowed = robots.isAllowed(`https://${host}${path}`, token);
    return allowed === undefined ? null : !allowed;
  }

  private async load(host: string): Promise<Robots | null> {
    if (!this.config.robotsUrlTemplate) return null;
    const [row]: { status: number | null; body: string | null; fetched_at: Date }[] = await this.dataSource.query(`SELECT status, body, fetched_at FROM agent_site_robots WHERE host = $1`, [host]);
    let status = row?.status ?? null;
    let body = row?.body ?? null;
    if (!row || Date.now() - row.fetched_at.getTime() > FRESH_MS) {
      const url = this.config.robotsUrlTemplate.replace('{host}', host);
      // Through the egress guard (the host is the customer's to choose); RFC 9309: parse at least the first 500 KiB, so a longer file is cut there, not refused.
      const res = await this.egress.get(url, { maxBytes: 512 * 1024, timeoutMs: 5000, accept: 'text/plain', overflow: 'truncate' });
      if (res.ok) {
        status = res.status;
        body = res.status >= 200 && res.status < 300 ? res.body.toString('utf8') : null;
      } else {
        this.logger.warn(`robots.txt of ${host} unreachable (${res.kind}): ${res.reason}`);
        status = null;
        body = null;
      }
      await this.dataSource.query(
        `INSERT INTO agent_site_robots (host, status, body, fetched_at) VALUES ($1, $2, $3, now())
         ON CONFLICT (host) DO UPDATE SET status = excluded.status, body = excluded.body, fetched_at = excluded.fetched_at`,
        [host, status, body],
      );
    }
    // Unreadable, or a server error: nothing is known about what the site allows.
    if (status === null || status >= 500) return null;
    const url = `https://${host}/robots.txt`;
    return robotsParser(url, status >= 400 && status < 500 ? '' : (body ?? ''));
  }
}
