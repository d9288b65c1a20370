import { Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { InjectConfig } from '@libs/config';
import { TenancyRepository } from '@libs/tenancy';
import { PAGE_DETECTORS, pageOfEvidence, type PageDetection } from '../domain';
import { DETECTORS_CONFIG, type DetectorsConfig } from '../detectors.config';
import { DetectorThresholdsRepository } from '../detector-thresholds.repository';
import { PageHistoryReads } from '../read-model/page-history.reads';
import { openDetections, openFingerprints } from '../shared/open-detections';
import { VerifyingOpportunities, type VerificationTally } from '../shared/verifying';

const PAGE_TYPES = PAGE_DETECTORS.map((d) => d.type);
/** Advisory lock namespace of a brand's page pass (the projection engine's are 4242-4244). */
const PAGE_PASS_LOCK = 4250;

export interface PagePassResult {
  audits: number;
  opened: number[];
  alreadyOpen: number[];
  verification: VerificationTally;
  /** Brands whose pass failed (their audits are judged again next sweep). */
  failed: number[];
}

/**
 * The page detectors' pass (readiness_gap, schema_gap), run by PageGapSweep: the brands of the
 * page audits completed and not judged yet, and the brands with page gaps being verified. Per
 * brand, under an advisory lock (one worker process at a time; another skips it): first its
 * `verifying` page opportunities are checked on the page's audits after the fix (passed:
 * resolved; the gap still there: regressed; no audit yet: waiting), then the detectors judge the
 * pages scored in its new audits, each page's latest audit against the one before (a page not in
 * a new audit is not judged again: a dismissed gap stays dismissed until the page is audited).
 * Every report is computed before any is opened; the audits are marked judged after their brand's
 * pass; a brand whose pass fails is logged and left to the next sweep, the others go on.
 */
@Injectable()
export class PageGapPass {
  private readonly logger = new Logger('Detectors');

  constructor(
    private readonly reads: PageHistoryReads,
    private readonly thresholds: DetectorThresholdsRepository,
    private readonly commands: CommandBus,
    private readonly tenancy: TenancyRepository,
    private readonly verifying: VerifyingOpportunities,
    private readonly dataSource: DataSource,
    @InjectConfig(DETECTORS_CONFIG) private readonly config: DetectorsConfig,
  ) {}

  /** Judges the brands of audits completed in the last DETECTOR_HISTORY_DAYS and not judged yet (at most `limit` a call), and of page gaps being verified. */
  async run(correlationId: string, limit = 500): Promise<PagePassResult> {
    const audits: { id: string; organization_id: string; brand_id: string }[] = await this.dataSource.query(
      `SELECT a.id, a.organization_id, a.brand_id FROM page_audits a
        WHERE a.status = 'completed' AND a.completed_at >= now() - make_interval(days => $2::int)
          AND NOT EXISTS (SELECT 1 FROM page_gap_checks c WHERE c.audit_id = a.id)
        ORDER BY a.id LIMIT $1`,
      [limit, this.config.historyDays],
    );
    const verifying: { organization_id: string; brand_id: string }[] = await this.dataSource.query(
      `SELECT DISTINCT organization_id, brand_id FROM opportunities WHERE status = 'verifying' AND type = ANY($1::text[])`,
      [PAGE_TYPES],
    );
    const brands = new Map<string, { organizationId: number; brandId: number; auditIds: number[] }>();
    const brandOf = (org: string, brand: string) => {
      const key = `${org}:${brand}`;
      return brands.get(key) ?? brands.set(key, { organizationId: Number(org), brandId: Number(brand), auditIds: [] }).get(key)!;
    };
    for (const a of audits) brandOf(a.organization_id, a.brand_id).auditIds.push(Number(a.id));
    for (const v of verifying) brandOf(v.organization_id, v.brand_id);
    const result: PagePassResult = { audits: audits.length, opened: [], alreadyOpen: [], verification: { passed: [], failed: [], waiting: [] }, failed: [] };
    for (const b of brands.values()) {
      try {
        const r = await this.locked(b.organizationId, b.brandId, async () => {
          const r = await this.runBrand(b.organizationId, b.brandId, b.auditIds, correlationId);
          if (b.auditIds.length) {
            await this.dataSource.query(`INSERT INTO page_gap_checks (audit_id, organization_id, brand_id) SELECT unnest($1::bigint[]), $2, $3 ON CONFLICT (audit_id) DO NOTHING`, [
              b.auditIds,
              b.organizationId,
              b.brandId,
            ]);
          }
          return r;
        });
        if (!r) continue; // another worker is on this brand
        result.opened.push(...r.opened);
        result.alreadyOpen.push(...r.alreadyOpen);
        for (const k of ['passed', 'failed', 'waiting'] as const) result.verification[k].push(...r.verification[k]);
      } catch (error) {
        result.failed.push(b.brandId);
        this.logger.error(`page detectors, brand ${b.brandId}: ${(error as Error).message}`);
      }
    }
    if (result.opened.length) this.logger.log(`page detectors: opened ${result.opened.length} opportunities over ${brands.size} brand(s)`);
    return result;
  }

  /** One brand: verify its page fixes, then open what the page detectors report on the pages of `auditIds`. */
  async runBrand(organizationId: number, brandId: number, auditIds: readonly number[], correlationId: string): Promise<Omit<PagePassResult, 'audits' | 'failed'>> {
    const { thresholds } = await this.thresholds.of(organizationId);
    const verification = await this.verifying.settle(
      organizationId,
      brandId,
      PAGE_TYPES,
      async (state, fixedAt) => {
        const detector = PAGE_DETECTORS.find((d) => d.type === state.type);
        if (!detector) return null;
        const url = pageOfEvidence(state.evidence);
        return detector.verify(state.evidence, url ? await this.reads.page(organizationId, brandId, url, fixedAt) : [], thresholds);
      },
      correlationId,
    );
    const brand = auditIds.length ? await this.tenancy.findBrand({ organizationId, clientId: null }, brandId) : null;
    if (!brand) return { opened: [], alreadyOpen: [], verification };
    const judged = new Set(auditIds);
    // Only pages whose latest scored audit is one of these (a page audited again since waits for that audit's turn).
    const pages = (await this.reads.pagesOf(organizationId, brandId, auditIds)).filter((p) => judged.has(p.results[p.results.length - 1].auditId));
    const input = { brandId, brandName: brand.name, pages, openFingerprints: await openFingerprints(this.dataSource, organizationId, brandId, PAGE_TYPES), thresholds };
    const detections: PageDetection[] = PAGE_DETECTORS.flatMap((d) => d.detect(input));
    return { ...(await openDetections(this.commands, detections, { organizationId, brandId }, correlationId)), verification };
  }

  /** Runs `fn` holding the brand's page-pass lock (session level, on a connection of its own); null when another process holds it. */
  private async locked<T>(organizationId: number, brandId: number, fn: () => Promise<T>): Promise<T | null> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      const [{ ok }]: { ok: boolean }[] = await runner.query(`SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok`, [PAGE_PASS_LOCK, `${organizationId}:${brandId}`]);
      if (!ok) return null;
      try {
        return await fn();
      } finally {
        await runner.query(`SELECT pg_advisory_unlock($1, hashtext($2))`, [PAGE_PASS_LOCK, `${organizationId}:${brandId}`]);
      }
    } finally {
      await runner.release();
    }
  }
}
