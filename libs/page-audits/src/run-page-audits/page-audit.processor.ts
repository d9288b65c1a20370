import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { InjectConfig } from '@libs/config';
import { Queues, type QueueProducer } from '@libs/queue';
import { OrganizationQuotas } from '@libs/rate-limit';
import { REDIS } from '@libs/redis';
import { brandCoversHost, TenancyRepository } from '@libs/tenancy';
import { decodeBody, extractSignals, isHtml, MAX_AUDIT_URLS, normaliseUrl, pageFailure, pageRecommendations, parseSitemap, scorePage, urlProblem, type BotAccess, type PageFailure, type PageSignals } from '../domain';
import { PAGE_AUDITS_CONFIG, type PageAuditsConfig } from '../page-audits.config';
import { PageAuditsRepository, type PageAudit, type PageOutcome } from '../read-model/page-audits.repository';
import { pageAuditJobId, pageAuditQueue, type PageAuditJob } from '../shared/page-audit-queue';
import { fetchFailure, SITEMAP_MAX_BYTES, SiteFetcher, type HostRule } from './site-fetcher';

/** Child sitemaps of a sitemap index read at most. */
const MAX_CHILD_SITEMAPS = 50;
const ACCEPT_HTML = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';

const failed = (why: PageFailure, extra: Partial<PageOutcome> = {}): PageOutcome => ({
  status: 'failed',
  reason: why.message,
  reasonCode: why.code,
  httpStatus: null,
  finalUrl: null,
  etag: null,
  lastModified: null,
  score: null,
  components: null,
  recommendations: null,
  botAccess: null,
  signals: null,
  kinds: null,
  durationMs: null,
  ...extra,
});

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? null;

/**
 * Runs page audits (DESIGN §13.5) on the `{page-audits}` queue: a plan job turns the request (its
 * URLs, or the sitemap's, within the organisation's page quota) into pending page results and one
 * job per page; a page job reads the site's robots.txt (our agent must be allowed), fetches the
 * page through the egress guard at the host's pace with the previous audit's validators (ETag,
 * Last-Modified), scores it, and records the outcome once. Only hosts on the brand's domains (and
 * their subdomains) are fetched, redirects included. Every problem with a page (a bad URL, a
 * refused address, a timeout, a body too large, not HTML, a broken encoding) is that page's
 * recorded reason (a stable code and a sentence naming no host or address), never a failed job.
 */
@Injectable()
export class PageAuditProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('PageAudits');
  private site!: SiteFetcher;
  private producer!: QueueProducer<PageAuditJob>;

  constructor(
    private readonly queues: Queues,
    private readonly audits: PageAuditsRepository,
    private readonly tenancy: TenancyRepository,
    private readonly quotas: OrganizationQuotas,
    @InjectConfig(PAGE_AUDITS_CONFIG) private readonly config: PageAuditsConfig,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  onApplicationBootstrap(): void {
    this.site = new SiteFetcher(this.config, this.redis);
    this.producer = this.queues.process<PageAuditJob, string>(pageAuditQueue(this.config), (job) => this.process(job));
  }

  onApplicationShutdown(): void {
    this.site?.close();
  }

  async process(job: PageAuditJob): Promise<string> {
    const audit = await this.audits.audit(job.auditId);
    if (!audit) return 'gone';
    if (job.kind === 'plan') return this.plan(audit);
    return this.page(audit, job.n);
  }

  /** The hosts an audit may reach: its brand's domains, extra domains and their subdomains, as they are now. */
  private async hostsOf(audit: PageAudit): Promise<HostRule> {
    const brand = await this.tenancy.findBrand({ organizationId: audit.organizationId, clientId: null }, audit.brandId);
    const domains = brand ? [brand.domain, ...brand.extraDomains] : [];
    return { key: domains.join(','), allows: (host) => brand !== null && brandCoversHost(brand, host) };
  }

  private async plan(audit: PageAudit): Promise<string> {
    if (audit.status === 'completed' || audit.status === 'failed') return audit.status;
    let pending: number[] | null;
    if (audit.source === 'urls') pending = await this.audits.plan(audit, audit.requestedUrls, 0);
    else {
      const hosts = await this.hostsOf(audit);
      const found = await this.sitemapUrls(audit.sitemapUrl!, hosts);
      if ('code' in found) {
        await this.audits.fail(audit.id, found);
        return 'failed';
      }
      const urls = found.urls.slice(0, MAX_AUDIT_URLS);
      // A sitemap's size is known only now (URLs given were counted when asked): the pages that will
      // be fetched take what the page quota still allows, in order; the rest are left out. Entries
      // that are not fetched (malformed, off the brand's domains) cost nothing and keep their failure.
      pending = await this.audits.plan(audit, urls, found.urls.length - urls.length, async (m, listed) => {
        const fetchable = listed.filter((u) => !urlProblem(u) && hosts.allows(new URL(u).hostname));
        if (!fetchable.length) return { urls: listed, overQuota: 0 };
        const grant = await this.quotas.reserve(audit.organizationId, 'page_audit_pages', fetchable.length, { partial: true, within: m });
        if (grant.refusal) return pageFailure.quotaExceeded();
        const left = new Set(fetchable.slice(grant.granted));
        return { urls: listed.filter((u) => !left.has(u)), overQuota: left.size };
      });
    }
    if (pending === null) return 'failed';
    await this.producer.queue.addBulk(pending.map((n) => ({ name: 'page', data: { kind: 'page' as const, auditId: audit.id, n }, opts: { jobId: pageAuditJobId({ kind: 'page', auditId: audit.id, n }) } })));
    return `planned ${pending.length}`;
  }

  /** The page URLs of a sitemap (or of the sitemaps of a sitemap index), distinct, in order; or why there are none. */
  private async sitemapUrls(sitemapUrl: string, hosts: HostRule): Promise<{ urls: string[] } | PageFailure> {
    const read = async (url: string): Promise<{ kind: 'urlset' | 'sitemapindex'; locations: string[] } | PageFailure> => {
      const rules = await this.site.rules(new URL(url).origin, hosts);
      if (!rules.allows(url, this.config.userAgent)) {
        const robots = rules.robots;
        if (robots.state !== 'unavailable') return pageFailure.robotsDisallowed(this.config.robotsToken, 'the sitemap');
        // The site could not be reached at all: that is the reason, not robots.txt.
        if (robots.unreachable) return { code: robots.code, message: `the sitemap could not be fetched: ${robots.reason}` };
        return pageFailure.robotsUnavailable(robots.reason);
      }
      const res = await this.site.paced(url, { maxBytes: SITEMAP_MAX_BYTES, crawlDelay: rules.crawlDelay(this.config.userAgent), hosts });
      if (!res.ok) {
        const why = fetchFailure(res, this.config, SITEMAP_MAX_BYTES);
        this.logger.warn(`sitemap ${url}: ${res.kind}: ${res.reason}`);
        return { code: why.code, message: `the sitemap could not be fetched: ${why.message}` };
      }
      if (res.status !== 200) return pageFailure.http(res.status, 'the sitemap');
      const text = decodeBody(header(res.headers['content-type']) ?? 'application/xml', res.body);
      if (!text.ok) return pageFailure.badEncoding(`the sitemap: ${text.reason}`);
      const sitemap = parseSitemap(text.text);
      return sitemap.ok ? sitemap : pageFailure.notASitemap(sitemap.reason);
    };
    const top = await read(sitemapUrl);
    if ('code' in top) return top;
    let locations = top.locations;
    if (top.kind === 'sitemapindex') {
      locations = [];
      for (const child of top.locations.slice(0, MAX_CHILD_SITEMAPS)) {
        if (urlProblem(child) || !hosts.allows(new URL(child).hostname)) continue;
        const sub = await read(child);
        if ('code' in sub) this.logger.warn(`child sitemap ${child}: ${sub.code}: ${sub.message}`);
        else if (sub.kind === 'urlset') locations.push(...sub.locations);
        if (locations.length > MAX_AUDIT_URLS * 10) break;
      }
    }
    // Kept as given (a malformed one, or one off the brand's domains, is recorded as that page's failure), without repeats.
    const seen = new Set<string>();
    const urls = locations.filter((u) => {
      const key = urlProblem(u) ? u : normaliseUrl(u);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    return { urls: urls.map((u) => (urlProblem(u) ? u : normaliseUrl(u))) };
  }

  private async page(audit: PageAudit, n: number): Promise<string> {
    const result = await this.audits.result(audit.id, n);
    if (!result || result.status !== 'pending') return result?.status ?? 'gone';
    const outcome = await this.auditPage(audit, result.url).catch((error: Error) => {
      // Our own trouble (the database, Redis) is retried by the queue; anything else is the page's.
      if (/ECONNREFUSED|database|redis|Connection/i.test(error.message)) throw error;
      this.logger.warn(`page ${result.url}: ${error.message}`);
      return failed(pageFailure.internal());
    });
    await this.audits.finish(audit.id, n, outcome);
    return outcome.status;
  }

  private async auditPage(audit: PageAudit, url: string): Promise<PageOutcome> {
    const problem = urlProblem(url);
    if (problem) return failed(pageFailure.invalidUrl(problem));
    const hosts = await this.hostsOf(audit);
    if (!hosts.allows(new URL(url).hostname)) return failed(pageFailure.outsideBrandDomains());
    const origin = new URL(url).origin;
    const rules = await this.site.rules(origin, hosts);
    if (!rules.allows(url, this.config.userAgent)) {
      const robots = rules.robots;
      // The site could not be reached at all: the page fails for that reason (it would not be reached either).
      if (robots.state === 'unavailable' && robots.unreachable) return failed({ code: robots.code, message: robots.reason });
      const why = robots.state === 'unavailable' ? pageFailure.robotsUnavailable(robots.reason) : pageFailure.robotsDisallowed(this.config.robotsToken);
      return { ...failed(why), status: 'skipped', botAccess: rules.botAccess(url) };
    }
    const previous = await this.audits.previous(audit.brandId, url, audit.id);
    const headers: Record<string, string> = { accept: ACCEPT_HTML };
    if (previous?.etag) headers['if-none-match'] = previous.etag;
    if (previous?.lastModified) headers['if-modified-since'] = previous.lastModified;
    const res = await this.site.paced(url, { maxBytes: this.config.maxBytes, crawlDelay: rules.crawlDelay(this.config.userAgent), headers, hosts });
    if (!res.ok) {
      if (res.kind !== 'timeout' && res.kind !== 'too_large') this.logger.debug(`page ${url}: ${res.kind}: ${res.reason}`);
      return failed(fetchFailure(res, this.config), { durationMs: res.durationMs, finalUrl: res.redirects.length ? res.url : null });
    }
    const base = { httpStatus: res.status, finalUrl: res.url, durationMs: res.durationMs, etag: header(res.headers.etag), lastModified: header(res.headers['last-modified']) };
    const access = async (at: string) => ({ ...rules.botAccess(at), seen: await this.audits.botVisits(audit.organizationId, audit.brandId, at) });
    if (res.status === 304 && previous?.signals) {
      return this.scored(res.url, previous.signals, await access(res.url), { ...base, status: 'not_modified', etag: base.etag ?? previous.etag, lastModified: base.lastModified ?? previous.lastModified });
    }
    if (res.status !== 200) return failed(pageFailure.http(res.status), base);
    const contentType = header(res.headers['content-type']) ?? undefined;
    if (!isHtml(contentType, res.body)) return failed(pageFailure.notHtml(contentType), base);
    const text = decodeBody(contentType, res.body);
    if (!text.ok) return failed(pageFailure.badEncoding(text.reason), base);
    const signals = extractSignals(text.text, res.url);
    return this.scored(res.url, signals, await access(res.url), { ...base, status: 'scored' });
  }

  private scored(url: string, signals: PageSignals, access: BotAccess, base: Pick<PageOutcome, 'status' | 'httpStatus' | 'finalUrl' | 'durationMs' | 'etag' | 'lastModified'>): PageOutcome {
    const score = scorePage(url, signals, access, new Date());
    return { ...base, reason: null, reasonCode: null, score: score.score, components: score.components, recommendations: pageRecommendations(score), botAccess: access, signals, kinds: score.kinds };
  }
}
