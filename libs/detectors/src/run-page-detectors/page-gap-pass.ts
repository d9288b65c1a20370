import { Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { InjectConfig } from '@libs/config';
import { DetectOpportunityCommand } from '@libs/opportunities';
import { TenancyRepository } from '@libs/tenancy';
import { PAGE_DETECTORS, pageOfEvidence, type PageDetection } from '../domain';
import { DETECTORS_CONFIG, type DetectorsConfig } from '../detectors.config';
import { DetectorThresholdsRepository } from '../detector-thresholds.repository';
import { PageHistoryReads } from '../read-model/page-history.reads';
import { SYSTEM_ACTOR, VerifyingOpportunities, type VerificationTally } from '../shared/verifying';

const PAGE_TYPES = PAGE_DETECTORS.map((d) => d.type);

export interface PagePassResult {
  audits: number;
  opened: number[];
  alreadyOpen: number[];
  verification: VerificationTally;
}

/**
 * The page detectors' pass (readiness_gap, schema_gap), run by PageGapSweep over the page audits
 * completed since the last sweep: per brand, first the `verifying` page opportunities are checked
 * on the page's audits after the fix (passed: resolved; the gap still there: regressed; no audit
 * yet: waiting), then the detectors judge each page's latest audit against the one before it. Every
 * report is computed before any is opened; the audits are marked judged after their brand's pass.
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

  /** Judges the brands of every completed audit not judged yet (at most `limit` audits a call). */
  async run(correlationId: string, limit = 500): Promise<PagePassResult> {
    const audits: { id: string; organization_id: string; brand_id: string }[] = await this.dataSource.query(
      `SELECT a.id, a.organization_id, a.brand_id FROM page_audits a
        WHERE a.status = 'completed' AND a.completed_at >= now() - make_interval(days => $1::int)
          AND NOT EXISTS (SELECT 1 FROM page_gap_checks c WHERE c.audit_id = a.id)
        ORDER BY a.id LIMIT $2`,
      [this.config.historyDays, limit],
    );
    const result: PagePassResult = { audits: audits.length, opened: [], alreadyOpen: [], verification: { passed: [], failed: [], waiting: [] } };
    const brands = new Map<string, { organizationId: number; brandId: number; auditIds: number[] }>();
    for (const a of audits) {
      const key = `${a.organization_id}:${a.brand_id}`;
      const b = brands.get(key) ?? brands.set(key, { organizationId: Number(a.organization_id), brandId: Number(a.brand_id), auditIds: [] }).get(key)!;
      b.auditIds.push(Number(a.id));
    }
    for (const b of brands.values()) {
      const r = await this.runBrand(b.organizationId, b.brandId, correlationId);
      result.opened.push(...r.opened);
      result.alreadyOpen.push(...r.alreadyOpen);
      for (const k of ['passed', 'failed', 'waiting'] as const) result.verification[k].push(...r.verification[k]);
      await this.dataSource.query(
        `INSERT INTO page_gap_checks (audit_id, organization_id, brand_id) SELECT unnest($1::bigint[]), $2, $3 ON CONFLICT (audit_id) DO NOTHING`,
        [b.auditIds, b.organizationId, b.brandId],
      );
    }
    if (result.opened.length) this.logger.log(`page detectors: opened ${result.opened.length} opportunities over ${brands.size} brand(s)`);
    return result;
  }

  /** One brand: verify its page fixes, then open what the page detectors report. */
  async runBrand(organizationId: number, brandId: number, correlationId: string): Promise<Omit<PagePassResult, 'audits'>> {
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
    const brand = await this.tenancy.findBrand({ organizationId, clientId: null }, brandId);
    if (!brand) return { opened: [], alreadyOpen: [], verification };
    const open: { fingerprint: string }[] = await this.dataSource.query(`SELECT fingerprint FROM opportunities WHERE organization_id = $1 AND brand_id = $2 AND NOT terminal AND type = ANY($3::text[])`, [
      organizationId,
      brandId,
      PAGE_TYPES,
    ]);
    const pages = await this.reads.brand(organizationId, brandId, new Date(Date.now() - this.config.historyDays * 86_400_000));
    const input = { brandId, brandName: brand.name, pages, openFingerprints: new Set(open.map((o) => o.fingerprint)), thresholds };
    const detections: PageDetection[] = PAGE_DETECTORS.flatMap((d) => d.detect(input));
    const opened: number[] = [];
    const alreadyOpen: number[] = [];
    for (const d of detections) {
      const r = await this.commands.execute(
        new DetectOpportunityCommand(
          { organizationId, brandId, type: d.type, severity: d.severity, title: d.title, description: d.description, evidence: d.evidence, source: `detector:${d.type}`, fingerprint: d.fingerprint },
          SYSTEM_ACTOR,
          correlationId,
        ),
      );
      (r.created ? opened : alreadyOpen).push(r.state.id);
    }
    return { opened, alreadyOpen, verification };
  }
}
