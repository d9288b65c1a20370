import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { InjectConfig } from '@libs/config';
import { FinalizeOutcomeCommand, OpportunityRepository, OpportunityRuleError, type OpportunityState } from '@libs/opportunities';
import { TenancyRepository } from '@libs/tenancy';
import {
  ANSWER_DETECTORS,
  answerOutcome,
  answersInScope,
  channelOutcome,
  channelWindows,
  detectAll,
  detectorOf,
  outcomeWindows,
  scopeFromEvidence,
  type DetectorDefinition,
  type Thresholds,
} from '../domain';
import { DETECTORS_CONFIG, type DetectorsConfig } from '../detectors.config';
import { SYSTEM_ACTOR, VerifyingOpportunities } from './verifying';
import { openDetections, openFingerprints } from './open-detections';
import { DetectorThresholdsRepository } from '../detector-thresholds.repository';
import { AnswerFactsReads } from '../read-model/answer-facts.reads';
import { ChannelOutcomeReads } from '../read-model/channel-outcome.reads';

/** Injection token: the detectors a pass runs (ANSWER_DETECTORS; a test may give a list with a failing one). */
export const DETECTOR_LIST = Symbol('DETECTOR_LIST');


export interface PassResult {
  opened: number[];
  /** Reports that found their problem already open (the detect command returned the open one). */
  alreadyOpen: number[];
  verification: { passed: number[]; failed: number[]; waiting: number[] };
  outcomes: number[];
}

/**
 * One pass of the loop over a brand, after its runs completed: verify the fixes of its
 * `verifying` opportunities on answers recorded after each fix, open what the detectors report
 * (through the detect command: one opportunity per fingerprint, a recurrence linked), and
 * finalise the outcomes whose window after resolution has passed. Every step is idempotent, so a
 * pass given again (a reactor's batch after a crash) changes nothing that is already done.
 */
@Injectable()
export class DetectorPass {
  private readonly logger = new Logger('Detectors');

  constructor(
    private readonly reads: AnswerFactsReads,
    private readonly channels: ChannelOutcomeReads,
    private readonly thresholds: DetectorThresholdsRepository,
    private readonly commands: CommandBus,
    private readonly repository: OpportunityRepository,
    private readonly tenancy: TenancyRepository,
    private readonly dataSource: DataSource,
    @InjectConfig(DETECTORS_CONFIG) private readonly config: DetectorsConfig,
    @Inject(DETECTOR_LIST) private readonly detectors: readonly DetectorDefinition[],
    private readonly verifying: VerifyingOpportunities,
  ) {}

  /**
   * `asOf` (default now) is the moment the pass judges from: it reads only answers asked before it,
   * dates what it records at it, and finalises outcomes whose window has passed by then (the demo
   * seed replays its history's passes at their days; live passes run at now).
   */
  async run(organizationId: number, brandId: number, runIds: ReadonlySet<number> | null, correlationId: string, asOf?: Date): Promise<PassResult> {
    const { thresholds } = await this.thresholds.of(organizationId);
    const verification = await this.verify(organizationId, brandId, thresholds, correlationId, asOf);
    const { opened, alreadyOpen } = await this.detect(organizationId, brandId, runIds, thresholds, correlationId, asOf);
    const outcomes = await this.finalizeOutcomes(organizationId, brandId, thresholds, correlationId, asOf);
    return { opened, alreadyOpen, verification, outcomes };
  }

  /** Runs every detector over the brand's latest answers, then opens what they report (nothing is opened when one fails). */
  async detect(organizationId: number, brandId: number, runIds: ReadonlySet<number> | null, t: Thresholds, correlationId: string, asOf?: Date): Promise<{ opened: number[]; alreadyOpen: number[] }> {
    const now = asOf ?? new Date();
    const brand = await this.tenancy.findBrand({ organizationId, clientId: null }, brandId);
    if (!brand) return { opened: [], alreadyOpen: [] };
    const open = await openFingerprints(this.dataSource, organizationId, brandId);
    const series = await this.reads.series({ organizationId, brandId, since: new Date(now.getTime() - this.config.historyDays * 86_400_000), ...(asOf ? { until: asOf } : {}), perSeries: t.recentAnswers + t.baselineAnswers });
    // Every report first (pure): a detector that throws leaves nothing opened by this pass.
    const detections = detectAll({ organizationId, brandId, brandName: brand.name, series, runIds, openFingerprints: open, thresholds: t }, this.detectors);
    const result = await openDetections(this.commands, detections, { organizationId, brandId }, correlationId, asOf);
    if (result.opened.length) this.logger.log(`brand ${brandId}: opened ${result.opened.length} opportunities (${[...new Set(detections.map((d) => d.type))].join(', ')})`);
    return result;
  }

  /** Re-measures each `verifying` opportunity of the brand on the answers recorded after its fix was deployed. */
  async verify(organizationId: number, brandId: number, t: Thresholds, correlationId: string, asOf?: Date): Promise<PassResult['verification']> {
    return this.verifying.settle(
      organizationId,
      brandId,
      this.detectors.map((d) => d.type),
      async (state, fixedAt) => {
        const detector = detectorOf(state.type, this.detectors);
        if (!detector) return null;
        const after = await this.reads.series({ organizationId, brandId, since: fixedAt, ...(asOf ? { until: asOf } : {}), perSeries: 1000 });
        return detector.verify(state.evidence, after, t);
      },
      correlationId,
      asOf,
    );
  }

  /** Finalises the outcome of each resolved opportunity of the brand whose window after resolution has passed. */
  async finalizeOutcomes(organizationId: number, brandId: number, t: Thresholds, correlationId: string, asOf?: Date): Promise<number[]> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT id FROM opportunities WHERE organization_id = $1 AND brand_id = $2 AND status = 'resolved' AND outcome IS NULL AND resolved_at <= coalesce($4::timestamptz, now()) - make_interval(secs => $3::float8) ORDER BY id`,
      [organizationId, brandId, t.outcomeWindowDays * 86_400, asOf?.toISOString() ?? null],
    );
    const done: number[] = [];
    for (const { id } of rows) {
      const state = await this.repository.load(Number(id));
      if (!state || state.status !== 'resolved' || state.outcome || !state.resolvedAt) continue;
      try {
        await this.commands.execute(new FinalizeOutcomeCommand(state.id, await this.outcomeOf(state, t), { organizationId, ...SYSTEM_ACTOR }, correlationId, asOf));
        done.push(state.id);
      } catch (error) {
        if (!(error instanceof OpportunityRuleError && error.rule === 'outcome_already_final')) throw error;
      }
    }
    return done;
  }

  /** Every brand with a resolved opportunity still without its outcome (the worker's periodic sweep). */
  async finalizeDueOutcomes(correlationId: string): Promise<number[]> {
    const brands: { organization_id: string; brand_id: string }[] = await this.dataSource.query(
      `SELECT DISTINCT organization_id, brand_id FROM opportunities WHERE status = 'resolved' AND outcome IS NULL ORDER BY organization_id, brand_id`,
    );
    const done: number[] = [];
    for (const b of brands) {
      const { thresholds } = await this.thresholds.of(Number(b.organization_id));
      done.push(...(await this.finalizeOutcomes(Number(b.organization_id), Number(b.brand_id), thresholds, correlationId)));
    }
    return done;
  }

  private async outcomeOf(state: OpportunityState, t: Thresholds) {
    const windows = outcomeWindows(new Date(state.detectedAt), new Date(state.resolvedAt!), t.outcomeWindowDays);
    const scope = scopeFromEvidence(state.evidence);
    const read = async (w: { from: string; to: string }) =>
      answersInScope(await this.reads.series({ organizationId: state.organizationId, brandId: state.brandId, since: new Date(w.from), until: new Date(w.to), perSeries: 100_000 }), scope);
    const figures = answerOutcome(await read(windows.before), await read(windows.after));
    const channelDays = channelWindows(new Date(state.detectedAt), new Date(state.resolvedAt!), t.outcomeWindowDays);
    const money = channelOutcome(await this.channels.sums(state.organizationId, state.brandId, channelDays));
    // The outcome's single conversions and revenue figures are the change (after - before): what the fix was worth.
    const moneyFigures = {
      aiTrafficBefore: money.aiSessions.before,
      aiTrafficAfter: money.aiSessions.after,
      conversions: money.conversions.change,
      revenue: money.revenue.change,
    };
    const unmeasured = Object.entries(moneyFigures).filter(([, v]) => v === null).map(([k]) => k);
    return {
      mentionRateBefore: figures.mentionRate.before.value,
      mentionRateAfter: figures.mentionRate.after.value,
      citationRateBefore: figures.citationRate.before.value,
      citationRateAfter: figures.citationRate.after.value,
      ...moneyFigures,
      measured: {
        windows,
        scope,
        mentionRate: figures.mentionRate,
        citationRate: figures.citationRate,
        channels: { windows: channelDays, ...money },
        ...(unmeasured.length
          ? { unmeasured: { figures: unmeasured, why: 'the brand has no channel rows with the figure in a window (AI referral sessions, conversions and revenue come from its channels: channel_metrics_daily)' } }
          : {}),
      },
    };
  }
}

export const DEFAULT_DETECTOR_LIST = { provide: DETECTOR_LIST, useValue: ANSWER_DETECTORS };
