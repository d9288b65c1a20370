import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { InjectConfig } from '@libs/config';
import { Queues, type QueueProducer } from '@libs/queue';
import { REDIS } from '@libs/redis';
import { decodeBody, extractSignals, isHtml, MAX_AUDIT_URLS, normaliseUrl, pageRecommendations, parseSitemap, scorePage, urlProblem, type BotAccess, type PageSignals } from '../domain';
import { PAGE_AUDITS_CONFIG, type PageAuditsConfig } from '../page-audits.config';
import { PageAuditsRepository, type PageAudit, type PageOutcome } from '../read-model/page-audits.repository';
import { pageAuditJobId, pageAuditQueue, type PageAuditJob } from '../shared/page-audit-queue';
import { SITEMAP_MAX_BYTES, SiteFetcher } from './site-fetcher';

/** Child sitemaps of a sitemap index read at most. */
const MAX_CHILD_SITEMAPS = 50;
const ACCEPT_HTML = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';

const failed = (reason: string, extra: Partial<PageOutcome> = {}): PageOutcome => ({
  status: 'failed',
  reason,
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
 * URLs, or the sitemap's) into pending page results and one job per page; a page job reads the
 * site's robots.txt (our agent must be allowed), fetches the page through the egress guard at the
 * host's pace with the previous audit's validators (ETag, Last-Modified), scores it, and records
 * the outcome once. Every problem with a page (a bad URL, a refused address, a timeout, a body too
 * large, not HTML, a broken encoding) is that page's recorded reason, never a failed job.
 */
@Injectable()
export class PageAuditProcessor implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('PageAudits');
  private site!: SiteFetcher;
  private producer!: QueueProducer<PageAuditJob>;

  constructor(
    private readonly queues: Queues,
    private readonly audits: PageAuditsRepository,
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

  private async plan(audit: PageAudit): Promise<string> {
    if (audit.status === 'completed' || audit.status === 'failed') return audit.status;
    let urls: string[];
    let dropped = 0;
    if (audit.source === 'urls') urls = audit.requestedUrls;
    else {
      const found = await this.sitemapUrls(audit.sitemapUrl!);
      if ('reason' in found) {
        await this.audits.fail(audit.id, found.reason);
        return 'failed';
      }
      urls = found.urls.slice(0, MAX_AUDIT_URLS);
      dropped = found.urls.length - urls.length;
    }
    const pending = await this.audits.plan(audit, urls, dropped);
    await this.producer.queue.addBulk(pending.map((n) => ({ name: 'page', data: { kind: 'page' as const, auditId: audit.id, n }, opts: { jobId: pageAuditJobId({ kind: 'page', auditId: audit.id, n }) } })));
    return `planned ${pending.length}`;
  }

  /** The page URLs of a sitemap (or of the sitemaps of a sitemap index), distinct, in order; or why there are none. */
  private async sitemapUrls(sitemapUrl: string): Promise<{ urls: string[] } | { reason: string }> {
    const read = async (url: string) => {
      const rules = await this.site.rules(new URL(url).origin);
      if (!rules.allows(url, this.config.userAgent)) return { reason: `robots.txt disallows ${this.config.robotsToken} from ${url}` };
      const res = await this.site.paced(url, { maxBytes: SITEMAP_MAX_BYTES, crawlDelay: rules.crawlDelay(this.config.userAgent) });
      if (!res.ok) return { reason: `the sitemap ${url} could not be fetched (${res.kind}: ${res.reason})` };
      if (res.status !== 200) return { reason: `the sitemap ${url} answered HTTP ${res.status}` };
      const text = decodeBody(header(res.headers['content-type']) ?? 'application/xml', res.body);
      if (!text.ok) return { reason: `the sitemap ${url}: ${text.reason}` };
      const sitemap = parseSitemap(text.text);
      return sitemap.ok ? sitemap : { reason: `${sitemap.reason} (${url})` };
    };
    const top = await read(sitemapUrl);
    if ('reason' in top) return top;
    let locations = top.locations;
    if (top.kind === 'sitemapindex') {
      locations = [];
      for (const child of top.locations.slice(0, MAX_CHILD_SITEMAPS)) {
        if (urlProblem(child)) continue;
        const sub = await read(child);
        if ('reason' in sub) this.logger.warn(sub.reason);
        else if (sub.kind === 'urlset') locations.push(...sub.locations);
        if (locations.length > MAX_AUDIT_URLS * 10) break;
      }
    }
    // Kept as given (a malformed one is recorded as that page's failure), without repeats.
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
      return failed(`could not be audited: ${error.message.slice(0, 300)}`);
    });
    await this.audits.finish(audit.id, n, outcome);
    return outcome.status;
  }

  private async auditPage(audit: PageAudit, url: string): Promise<PageOutcome> {
    const problem = urlProblem(url);
    if (problem) return failed(`the URL ${problem}`);
    const origin = new URL(url).origin;
    const rules = await this.site.rules(origin);
    if (!rules.allows(url, this.config.userAgent)) {
      const why = rules.robots.state === 'unavailable' ? `robots.txt could not be read (${rules.robots.reason}): nothing on the site may be fetched` : `robots.txt disallows ${this.config.robotsToken} from this URL`;
      return { ...failed(why), status: 'skipped', botAccess: rules.botAccess(url) };
    }
    const previous = await this.audits.previous(audit.brandId, url, audit.id);
    const headers: Record<string, string> = { accept: ACCEPT_HTML };
    if (previous?.etag) headers['if-none-match'] = previous.etag;
    if (previous?.lastModified) headers['if-modified-since'] = previous.lastModified;
    const res = await this.site.paced(url, { maxBytes: this.config.maxBytes, crawlDelay: rules.crawlDelay(this.config.userAgent), headers });
    if (!res.ok) {
      const reason = res.kind === 'too_large' ? `the page is too large (${res.reason}; the cap is ${this.config.maxBytes} bytes)` : res.kind === 'timeout' ? `timed out after ${this.config.timeoutMs} ms` : `${res.kind}: ${res.reason}`;
      return failed(reason, { durationMs: res.durationMs, finalUrl: res.redirects.length ? res.url : null });
    }
    const base = { httpStatus: res.status, finalUrl: res.url, durationMs: res.durationMs, etag: header(res.headers.etag), lastModified: header(res.headers['last-modified']) };
    const access = async (at: string) => ({ ...rules.botAccess(at), seen: await this.audits.botVisits(audit.organizationId, audit.brandId, at) });
    if (res.status === 304 && previous?.signals) {
      return this.scored(res.url, previous.signals, await access(res.url), { ...base, status: 'not_modified', etag: base.etag ?? previous.etag, lastModified: base.lastModified ?? previous.lastModified });
    }
    if (res.status !== 200) return failed(`HTTP ${res.status}`, base);
    const contentType = header(res.headers['content-type']) ?? undefined;
    if (!isHtml(contentType, res.body)) return failed(`not an HTML page (Content-Type ${contentType ?? 'missing'})`, base);
    const text = decodeBody(contentType, res.body);
    if (!text.ok) return failed(text.reason, base);
    const signals = extractSignals(text.text, res.url);
    return this.scored(res.url, signals, await access(res.url), { ...base, status: 'scored' });
  }

  private scored(url: string, signals: PageSignals, access: BotAccess, base: Pick<PageOutcome, 'status' | 'httpStatus' | 'finalUrl' | 'durationMs' | 'etag' | 'lastModified'>): PageOutcome {
    const score = scorePage(url, signals, access, new Date());
    return { ...base, reason: null, score: score.score, components: score.components, recommendations: pageRecommendations(score), botAccess: access, signals, kinds: score.kinds };
  }
}
