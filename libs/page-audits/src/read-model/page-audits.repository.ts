import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { answersWithCitationsFacts, citationGapFacts, competitorNameFacts, type CitationGapFactRow } from '@libs/analysis';
import { PAGE_ROLLUP_PRESENT, pageBotVisitFacts, type PageBotVisitFactRow } from '@libs/agent-analytics';
import type { AnswerFinding, AuditedPage, BotAccess, BotVisits, ComponentScore, PageFailure, PageKind, PageRecommendation, PageSignals } from '../domain';

export type AuditStatus = 'queued' | 'running' | 'completed' | 'failed';
export type ResultStatus = 'pending' | 'scored' | 'not_modified' | 'failed' | 'skipped';

export interface PageAudit {
  id: number;
  organizationId: number;
  clientId: number | null;
  brandId: number;
  source: 'urls' | 'sitemap';
  sitemapUrl: string | null;
  requestedUrls: string[];
  status: AuditStatus;
  pagesTotal: number;
  pagesDone: number;
  pagesFailed: number;
  urlsDropped: number;
  /** Sitemap pages beyond what the organisation's page quota allowed (not audited). */
  pagesOverQuota: number;
  reason: string | null;
  /** The stable code of `reason` (domain/page-failures). */
  reasonCode: string | null;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
}

export interface PageResult {
  id: number;
  auditId: number;
  n: number;
  brandId: number;
  url: string;
  status: ResultStatus;
  reason: string | null;
  /** The stable code of `reason` (domain/page-failures). */
  reasonCode: string | null;
  httpStatus: number | null;
  finalUrl: string | null;
  etag: string | null;
  lastModified: string | null;
  score: number | null;
  components: ComponentScore[] | null;
  recommendations: PageRecommendation[] | null;
  botAccess: BotAccess | null;
  signals: PageSignals | null;
  kinds: PageKind[] | null;
  durationMs: number | null;
  fetchedAt: string | null;
}

/** What a finished page job records: a page result's outcome fields. */
export type PageOutcome = Omit<PageResult, 'id' | 'auditId' | 'n' | 'brandId' | 'url' | 'status' | 'fetchedAt'> & { status: Exclude<ResultStatus, 'pending'> };

type Row = Record<string, unknown>;
const iso = (v: unknown) => (v === null || v === undefined ? null : (v as Date).toISOString());

const auditOf = (r: Row): PageAudit => ({
  id: Number(r.id),
  organizationId: Number(r.organization_id),
  clientId: r.client_id === null ? null : Number(r.client_id),
  brandId: Number(r.brand_id),
  source: r.source as PageAudit['source'],
  sitemapUrl: (r.sitemap_url as string | null) ?? null,
  requestedUrls: r.requested_urls as string[],
  status: r.status as AuditStatus,
  pagesTotal: r.pages_total as number,
  pagesDone: r.pages_done as number,
  pagesFailed: r.pages_failed as number,
  urlsDropped: r.urls_dropped as number,
  pagesOverQuota: (r.pages_over_quota as number | undefined) ?? 0,
  reason: (r.reason as string | null) ?? null,
  reasonCode: (r.reason_code as string | null) ?? null,
  createdAt: iso(r.created_at)!,
  startedAt: iso(r.started_at),
  completedAt: iso(r.completed_at),
});

const resultOf = (r: Row): PageResult => ({
  id: Number(r.id),
  auditId: Number(r.audit_id),
  n: r.n as number,
  brandId: Number(r.brand_id),
  url: r.url as string,
  status: r.status as ResultStatus,
  reason: (r.reason as string | null) ?? null,
  reasonCode: (r.reason_code as string | null) ?? null,
  httpStatus: (r.http_status as number | null) ?? null,
  finalUrl: (r.final_url as string | null) ?? null,
  etag: (r.etag as string | null) ?? null,
  lastModified: (r.last_modified as string | null) ?? null,
  score: (r.score as number | null) ?? null,
  components: (r.components as ComponentScore[] | null) ?? null,
  recommendations: (r.recommendations as PageRecommendation[] | null) ?? null,
  botAccess: (r.bot_access as BotAccess | null) ?? null,
  signals: (r.signals as PageSignals | null) ?? null,
  kinds: (r.kinds as PageKind[] | null) ?? null,
  durationMs: (r.duration_ms as number | null) ?? null,
  fetchedAt: iso(r.fetched_at),
});

/** The page-audit tables (migrations/): audits, their page results (the history), each page's latest score. */
@Injectable()
export class PageAuditsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async create(a: { organizationId: number; clientId: number | null; brandId: number; source: 'urls' | 'sitemap'; sitemapUrl: string | null; urls: string[]; requestedBy: string }): Promise<PageAudit> {
    const [r]: Row[] = await this.dataSource.query(
      `INSERT INTO page_audits (organization_id, client_id, brand_id, source, sitemap_url, requested_urls, requested_by) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
      [a.organizationId, a.clientId, a.brandId, a.source, a.sitemapUrl, JSON.stringify(a.urls), a.requestedBy],
    );
    return auditOf(r);
  }

  async audit(id: number): Promise<PageAudit | null> {
    const [r]: Row[] = await this.dataSource.query(`SELECT * FROM page_audits WHERE id = $1`, [id]);
    return r ? auditOf(r) : null;
  }

  /** An audit of a brand (the caller has resolved the brand). */
  async auditOfBrand(brandId: number, id: number): Promise<PageAudit | null> {
    const [r]: Row[] = await this.dataSource.query(`SELECT * FROM page_audits WHERE id = $1 AND brand_id = $2`, [id, brandId]);
    return r ? auditOf(r) : null;
  }

  async results(auditId: number): Promise<PageResult[]> {
    return ((await this.dataSource.query(`SELECT * FROM page_audit_results WHERE audit_id = $1 ORDER BY n`, [auditId])) as Row[]).map(resultOf);
  }

  async fail(id: number, why: PageFailure, m: Pick<EntityManager, 'query'> = this.dataSource): Promise<void> {
    await m.query(
      `UPDATE page_audits SET status = 'failed', reason = $2, reason_code = $3, completed_at = now(), started_at = coalesce(started_at, now()) WHERE id = $1 AND status IN ('queued', 'running')`,
      [id, why.message.slice(0, 1000), why.code],
    );
  }

  /**
   * Records the audit's pages as pending and starts it, once: a replayed plan (its pages are
   * already recorded) adds nothing and admits nothing again. `admit` (a sitemap's pages) is asked,
   * in the same transaction, which of them the organisation's quota takes (and how many it left
   * out), or why none; then the audit fails. An audit with no page completes at once. Returns the
   * page numbers still pending, or null when the audit failed.
   */
  async plan(audit: PageAudit, urls: string[], dropped: number, admit?: (m: EntityManager, urls: string[]) => Promise<{ urls: string[]; overQuota: number } | PageFailure>): Promise<number[] | null> {
    return this.dataSource.transaction(async (m) => {
      const [locked]: { status: AuditStatus; planned: number }[] = await m.query(
        `SELECT status, (SELECT count(*) FROM page_audit_results WHERE audit_id = $1)::int AS planned FROM page_audits WHERE id = $1 FOR UPDATE`,
        [audit.id],
      );
      if (!locked || (locked.status !== 'queued' && locked.status !== 'running')) return [];
      if (locked.planned === 0) {
        let pages = urls;
        let overQuota = 0;
        if (admit && urls.length) {
          const admitted = await admit(m, urls);
          if ('code' in admitted) {
            await this.fail(audit.id, admitted, m);
            return null;
          }
          ({ urls: pages, overQuota } = admitted);
        }
        await m.query(
          `INSERT INTO page_audit_results (audit_id, n, organization_id, client_id, brand_id, url)
           SELECT $1, t.n - 1, $2, $3, $4, t.url FROM unnest($5::text[]) WITH ORDINALITY AS t(url, n)
           ON CONFLICT (audit_id, n) DO NOTHING`,
          [audit.id, audit.organizationId, audit.clientId, audit.brandId, pages],
        );
        await m.query(
          `UPDATE page_audits SET pages_total = $2, urls_dropped = $3, pages_over_quota = $4, started_at = coalesce(started_at, now()),
             status = CASE WHEN $2 = 0 THEN 'completed' ELSE 'running' END, completed_at = CASE WHEN $2 = 0 THEN now() ELSE NULL END
           WHERE id = $1`,
          [audit.id, pages.length, dropped, overQuota],
        );
      }
      const rows: { n: number }[] = await m.query(`SELECT n FROM page_audit_results WHERE audit_id = $1 AND status = 'pending' ORDER BY n`, [audit.id]);
      return rows.map((r) => r.n);
    });
  }

  async result(auditId: number, n: number): Promise<PageResult | null> {
    const [r]: Row[] = await this.dataSource.query(`SELECT * FROM page_audit_results WHERE audit_id = $1 AND n = $2`, [auditId, n]);
    return r ? resultOf(r) : null;
  }

  /** The page's latest scored result before this audit (its validators and signals, for a conditional request). */
  async previous(brandId: number, url: string, beforeAuditId: number): Promise<PageResult | null> {
    const [r]: Row[] = await this.dataSource.query(
      `SELECT * FROM page_audit_results WHERE brand_id = $1 AND url = $2 AND audit_id < $3 AND status IN ('scored', 'not_modified') ORDER BY id DESC LIMIT 1`,
      [brandId, url, beforeAuditId],
    );
    return r ? resultOf(r) : null;
  }

  /**
   * Records a page's outcome once (only a pending result changes), counts it in its audit (the
   * last page completes the audit), and makes a scored result the page's latest: one statement.
   */
  async finish(auditId: number, n: number, o: PageOutcome): Promise<boolean> {
    const rows: { id: string }[] = await this.dataSource.query(
      `WITH done AS (
         UPDATE page_audit_results SET status = $3, reason = $4, http_status = $5, final_url = $6, etag = $7, last_modified = $8, score = $9,
           components = $10, recommendations = $11, bot_access = $12, signals = $13, kinds = $14, duration_ms = $15, reason_code = $16, fetched_at = now()
         WHERE audit_id = $1 AND n = $2 AND status = 'pending'
         RETURNING id, organization_id, client_id, brand_id, url, score, status, fetched_at
       ), counted AS (
         UPDATE page_audits a SET pages_done = a.pages_done + 1, pages_failed = a.pages_failed + (CASE WHEN d.status IN ('failed', 'skipped') THEN 1 ELSE 0 END),
           status = CASE WHEN a.pages_done + 1 >= a.pages_total THEN 'completed' ELSE a.status END,
           completed_at = CASE WHEN a.pages_done + 1 >= a.pages_total THEN now() ELSE a.completed_at END
         FROM done d WHERE a.id = $1 RETURNING a.id
       ), latest AS (
         INSERT INTO page_audit_pages (organization_id, client_id, brand_id, url, result_id, audit_id, score, audited_at)
         SELECT organization_id, client_id, brand_id, url, id, $1, score, fetched_at FROM done WHERE status IN ('scored', 'not_modified')
         ON CONFLICT (brand_id, url) DO UPDATE SET result_id = excluded.result_id, audit_id = excluded.audit_id, score = excluded.score, audited_at = excluded.audited_at
           WHERE page_audit_pages.result_id < excluded.result_id
         RETURNING url
       )
       SELECT id::text FROM done, (SELECT count(*) FROM counted) c, (SELECT count(*) FROM latest) l`,
      [
        auditId,
        n,
        o.status,
        o.reason?.slice(0, 1000) ?? null,
        o.httpStatus,
        o.finalUrl,
        o.etag?.slice(0, 500) ?? null,
        o.lastModified?.slice(0, 100) ?? null,
        o.score,
        o.components === null ? null : JSON.stringify(o.components),
        o.recommendations === null ? null : JSON.stringify(o.recommendations),
        o.botAccess === null ? null : JSON.stringify(o.botAccess),
        o.signals === null ? null : JSON.stringify(o.signals),
        o.kinds,
        o.durationMs,
        o.reasonCode,
      ],
    );
    return rows.length > 0;
  }

  private agentTable: Promise<boolean> | null = null;

  /**
   * AI bots' visits of a page in the last `days` days with their statuses, from agent analytics'
   * daily page rollup (its `pageBotVisitFacts`); null when agent analytics has no such table.
   */
  async botVisits(organizationId: number, brandId: number, url: string, days = 30): Promise<BotVisits | null> {
    this.agentTable ??= this.dataSource.query(PAGE_ROLLUP_PRESENT.text, PAGE_ROLLUP_PRESENT.params).then((r: { present: boolean }[]) => r[0].present);
    if (!(await this.agentTable)) return null;
    const u = new URL(url);
    const facts = pageBotVisitFacts(organizationId, brandId, u.hostname.toLowerCase().replace(/^\[|\]$/g, ''), [...new Set([u.pathname, u.pathname + u.search])], days);
    const rows: PageBotVisitFactRow[] = await this.dataSource.query(facts.text, facts.params);
    return { days, bots: rows.map((r) => ({ bot: r.bot, visits: r.visits, errors: r.errors ?? 0, statuses: r.statuses ?? [] })) };
  }

  /** A brand's pages with their latest score, sorted, paginated. */
  async pages(brandId: number, q: { limit: number; offset: number; sortColumn: string; order: 'asc' | 'desc' }): Promise<{ rows: PageResult[]; total: number }> {
    const order = q.order === 'asc' ? 'ASC' : 'DESC';
    const rows: Row[] = await this.dataSource.query(
      `SELECT r.*, count(*) OVER () AS total FROM page_audit_pages p JOIN page_audit_results r ON r.id = p.result_id
       WHERE p.brand_id = $1 ORDER BY p.${q.sortColumn} ${order}, p.url ASC LIMIT $2 OFFSET $3`,
      [brandId, q.limit, q.offset],
    );
    let total = rows.length ? Number(rows[0].total) : 0;
    if (!rows.length && q.offset > 0) [{ total }] = (await this.dataSource.query(`SELECT count(*)::int AS total FROM page_audit_pages WHERE brand_id = $1`, [brandId])) as { total: number }[];
    return { rows: rows.map(resultOf), total };
  }

  /** The last `keep` scores of each page (newest first): its history. */
  async history(brandId: number, urls: string[], keep = 20): Promise<Map<string, { auditId: number; auditedAt: string; score: number }[]>> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT url, audit_id, fetched_at, score FROM (
         SELECT url, audit_id, fetched_at, score, row_number() OVER (PARTITION BY url ORDER BY id DESC) AS k
         FROM page_audit_results WHERE brand_id = $1 AND url = ANY($2::text[]) AND status IN ('scored', 'not_modified')
       ) h WHERE k <= $3 ORDER BY url, fetched_at DESC`,
      [brandId, urls, keep],
    );
    const out = new Map<string, { auditId: number; auditedAt: string; score: number }[]>();
    for (const r of rows) {
      const list = out.get(r.url as string) ?? [];
      list.push({ auditId: Number(r.audit_id), auditedAt: iso(r.fetched_at)!, score: r.score as number });
      out.set(r.url as string, list);
    }
    return out;
  }

  /** Every audited page of a brand with its latest recommendations (at most `limit`, best known first). */
  async audited(brandId: number, limit = 5000): Promise<AuditedPage[]> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT p.url, p.score, r.recommendations FROM page_audit_pages p JOIN page_audit_results r ON r.id = p.result_id WHERE p.brand_id = $1 ORDER BY p.url LIMIT $2`,
      [brandId, limit],
    );
    return rows.map((r) => ({ url: r.url as string, score: r.score as number, recommendations: (r.recommendations as PageRecommendation[] | null) ?? [] }));
  }

  /**
   * Answer findings of a brand since `since` (analysis's answer facts: `citationGapFacts` and
   * its neighbours): per prompt, the answers citing a competitor's page and none of the
   * brand's, with the competitors' cited pages; and the brand's answers with at least one citation.
   */
  async answerFindings(organizationId: number, brandId: number, since: Date, limit = 50): Promise<{ findings: AnswerFinding[]; answersWithCitations: number }> {
    const count = answersWithCitationsFacts(organizationId, brandId, since);
    const [{ n }]: { n: number }[] = await this.dataSource.query(count.text, count.params);
    const gaps = citationGapFacts(organizationId, brandId, since, limit);
    const rows: CitationGapFactRow[] = await this.dataSource.query(gaps.text, gaps.params);
    const names = competitorNameFacts(organizationId, brandId, since);
    const competitorNames = new Map<string, string>(((await this.dataSource.query(names.text, names.params)) as { entity_id: string; name: string }[]).map((r) => [r.entity_id, r.name]));
    return {
      answersWithCitations: n,
      findings: rows.map((r) => ({
        query: r.query,
        answers: r.answers,
        providers: r.providers,
        competitorPages: (r.pages ?? []).slice(0, 10).map((p) => ({
          url: p.url,
          domain: p.domain,
          competitor: (p.entityId && competitorNames.get(p.entityId)) ?? p.domain,
          citations: p.citations,
        })),
      })),
    };
  }
}
