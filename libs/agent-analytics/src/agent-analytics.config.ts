import { defineConfigSection, type ConfigOf } from '@libs/config';
import { readAllowance } from '@libs/egress';

/** Agent analytics (DESIGN §13.2): retention, where published ranges, DNS, key directories and robots.txt are read. */
export const AGENT_ANALYTICS_CONFIG = defineConfigSection(
  'agent-analytics',
  [
    { name: 'AGENT_RETENTION_DAYS', default: '400', description: 'Days of bot visits kept; older day partitions and rollup rows are dropped' },
    { name: 'AGENT_RETENTION_CHECK_MS', default: '3600000', description: 'How often the worker drops expired partitions' },
    { name: 'AGENT_RANGES_BASE_URL', default: '(none)', description: "Where `bots refresh` downloads published IP ranges: unset, each operator's own address; set, `<base>/<bot id>.json` (a mirror, or a local server in tests)" },
    { name: 'AGENT_RANGES_RELOAD_MS', default: '60000', description: 'How old the published IP ranges a process holds may get before it reloads them from `agent_bot_ranges` (once, in the background: the old ranges serve meanwhile)' },
    { name: 'AGENT_INGEST_CONNECTIONS', default: '4', description: "How many of a process's database connections visit ingestion may hold at once (keep it below DATABASE_POOL_SIZE); more ingests wait for their turn" },
    { name: 'AGENT_INGEST_THREAD', default: 'on', description: "Where the API takes ingested batches: `on`, a thread of its own (its own event loop and its own AGENT_INGEST_CONNECTIONS + 2 connections), so other requests of the process are not served behind a batch's parsing; `off`, the request's thread" },
    { name: 'AGENT_INGEST_NICE', default: '5', description: 'The ingestion thread\'s nice value on Linux (0-19; higher yields more): on a busy machine, batches wait for the CPU rather than the requests the API serves' },
    { name: 'AGENT_DNS_SERVERS', default: '(none)', description: 'DNS servers for forward-confirmed reverse DNS (`host:port`, comma list); unset: the system resolver; `off`: no DNS checks' },
    { name: 'AGENT_DNS_TIMEOUT_MS', default: '2000', description: 'Timeout of one DNS query of the reverse-DNS check' },
    { name: 'AGENT_KEY_DIRECTORIES', default: '(none)', description: 'Web Bot Auth key directories by bot id, overriding the catalogue (`chatgpt-user=https://…`, comma list)' },
    { name: 'AGENT_ROBOTS_URL_TEMPLATE', default: 'https://{host}/robots.txt', description: "Where a registered site's robots.txt is read (`{host}` is replaced); `off`: never" },
    { name: 'AGENT_ALLOWED_ADDRESSES', default: '(none)', description: 'Non-public addresses robots.txt and key-directory fetches may reach anyway: a comma list of CIDRs (local development and tests only)' },
  ],
  (r) => {
    const dns = r.optional('AGENT_DNS_SERVERS');
    const directories = new Map<string, string>();
    for (const item of (r.optional('AGENT_KEY_DIRECTORIES') ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
      const [id, url] = [item.slice(0, item.indexOf('=')), item.slice(item.indexOf('=') + 1)];
      if (!id || !/^https?:\/\/\S+$/.test(url)) r.problem('AGENT_KEY_DIRECTORIES', `"${item}" is not <bot id>=<http(s) URL>`);
      else directories.set(id, url);
    }
    const rangesBase = r.optional('AGENT_RANGES_BASE_URL');
    if (rangesBase !== null && !/^https?:\/\/\S+$/.test(rangesBase)) r.problem('AGENT_RANGES_BASE_URL', 'must be an http(s) URL');
    const robots = r.raw('AGENT_ROBOTS_URL_TEMPLATE');
    if (robots !== 'off' && !/^https?:\/\/\S*\{host\}\S*$/.test(robots)) r.problem('AGENT_ROBOTS_URL_TEMPLATE', 'must be an http(s) URL holding {host}, or off');
    const allowed = readAllowance(r, 'AGENT_ALLOWED_ADDRESSES');
    if (dns !== null && dns !== 'off' && !dns.split(',').every((s) => /^[0-9a-fA-F.:[\]]+(:\d+)?$/.test(s.trim()))) r.problem('AGENT_DNS_SERVERS', 'must be a comma list of address[:port], or off');
    return {
      retentionDays: r.int('AGENT_RETENTION_DAYS', 1, 3650),
      retentionCheckMs: r.int('AGENT_RETENTION_CHECK_MS', 1000, 86_400_000),
      rangesBaseUrl: rangesBase,
      rangesReloadMs: r.int('AGENT_RANGES_RELOAD_MS', 100, 86_400_000),
      ingestConnections: r.int('AGENT_INGEST_CONNECTIONS', 1, 1000),
      ingestThread: r.oneOf('AGENT_INGEST_THREAD', ['on', 'off'] as const) === 'on',
      ingestNice: r.int('AGENT_INGEST_NICE', 0, 19),
      dnsServers: dns === null ? null : dns === 'off' ? ('off' as const) : dns.split(',').map((s) => s.trim()),
      dnsTimeoutMs: r.int('AGENT_DNS_TIMEOUT_MS', 10, 60_000),
      keyDirectories: directories,
      robotsUrlTemplate: robots === 'off' ? null : robots,
      /** Non-public addresses let through the egress guard (false: none). */
      allowed,
    };
  },
);
export type AgentAnalyticsConfig = ConfigOf<typeof AGENT_ANALYTICS_CONFIG>;
