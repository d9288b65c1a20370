import { defineConfigSection, type ConfigOf } from '@libs/config';
import { parseDnsServers, readAllowance } from '@libs/egress';

/** Page audits: how the service fetches a brand's pages (DESIGN §13.5). */
export const PAGE_AUDITS_CONFIG = defineConfigSection(
  'pageAudits',
  [
    { name: 'PAGE_AUDIT_USER_AGENT', default: 'AIVisibilityPageAudit/1.0 (+page audits of the AI visibility service)', description: 'User-Agent of every page-audit request; its first token is the name robots.txt rules match' },
    { name: 'PAGE_AUDIT_HOST_REQUESTS_PER_SECOND', default: '2', description: 'Requests a second to one host, across every worker process (a longer robots.txt Crawl-delay wins)' },
    { name: 'PAGE_AUDIT_TIMEOUT_MS', default: '15000', description: 'Timeout of one page fetch, redirects included' },
    { name: 'PAGE_AUDIT_MAX_BYTES', default: '5242880', description: 'Largest page fetched (decoded bytes); a larger one is recorded as too large' },
    { name: 'PAGE_AUDIT_CONCURRENCY', default: '10', description: 'Page fetches in flight per worker process' },
    { name: 'PAGE_AUDIT_ROBOTS_CACHE_MS', default: '600000', description: 'How long a worker keeps a site’s robots.txt' },
    { name: 'PAGE_AUDIT_ALLOWED_ADDRESSES', default: '(none)', description: 'Non-public addresses page audits may fetch anyway: a comma list of CIDRs (local development and tests only)' },
    {
      name: 'PAGE_AUDIT_DNS_SERVERS',
      default: '(none)',
      description: 'DNS servers page audits resolve site names with (`address[:port]`, comma list), e.g. a public resolver so that names only our own network knows never resolve; unset: the system resolver',
    },
  ],
  (r) => {
    const userAgent = r.raw('PAGE_AUDIT_USER_AGENT').trim();
    if (!/^[A-Za-z0-9._-]+\/[^\s]+/.test(userAgent) || /[\r\n]/.test(userAgent)) r.problem('PAGE_AUDIT_USER_AGENT', 'must start with a product token and version, e.g. AIVisibilityPageAudit/1.0');
    const allowed = readAllowance(r, 'PAGE_AUDIT_ALLOWED_ADDRESSES');
    const dns = r.optional('PAGE_AUDIT_DNS_SERVERS');
    let dnsServers: string[] | null = null;
    if (dns !== null) {
      try {
        dnsServers = parseDnsServers(dns);
      } catch (error) {
        r.problem('PAGE_AUDIT_DNS_SERVERS', `must be a comma list of address[:port]: ${(error as Error).message}`);
      }
    }
    return {
      userAgent,
      /** The product token robots.txt groups match. */
      robotsToken: userAgent.split('/')[0],
      hostRequestsPerSecond: r.int('PAGE_AUDIT_HOST_REQUESTS_PER_SECOND', 1, 1000),
      timeoutMs: r.int('PAGE_AUDIT_TIMEOUT_MS', 100, 600_000),
      maxBytes: r.int('PAGE_AUDIT_MAX_BYTES', 1024, 100 * 1024 * 1024),
      concurrency: r.int('PAGE_AUDIT_CONCURRENCY', 1, 1000),
      robotsCacheMs: r.int('PAGE_AUDIT_ROBOTS_CACHE_MS', 0, 86_400_000),
      /** Non-public addresses let through the egress guard (false: none). */
      allowed,
      /** DNS servers site names are resolved with (null: the system resolver). */
      dnsServers,
    };
  },
);
export type PageAuditsConfig = ConfigOf<typeof PAGE_AUDITS_CONFIG>;
