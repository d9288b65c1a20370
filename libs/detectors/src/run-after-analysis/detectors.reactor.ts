import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectConfig } from '@libs/config';
import type { RecordedEvent } from '@libs/event-store';
import { projectionsReached, type Reactor } from '@libs/projection-engine';
import { asAnalysisRunEvent } from '@libs/analysis';
import { DETECTORS_CONFIG, type DetectorsConfig } from '../detectors.config';
import { DetectorPassProcessor } from './detector-pass.processor';

/** The read model the detectors read: the answers' facts (a run's answers are analysed before it completes). */
export const DETECTOR_READ_MODELS = ['answer_facts'];

/**
 * When analysis runs complete, one detector pass per brand (verify, detect, finalise outcomes),
 * queued (`{detector-passes}`: any worker runs it). At least once: the reactor waits until the
 * answers' facts hold the runs' answers (or gives the batch back) before queueing, job ids dedupe
 * a batch given again, and every command a pass runs is idempotent (fingerprints, recorded
 * verdicts, final outcomes), so a pass run twice opens nothing new.
 */
@Injectable()
export class DetectorsReactor implements Reactor, OnModuleDestroy {
  readonly name = 'detectors';
  readonly handles = ['analysis_run.completed'];
  /** Set when the process shuts down (before the engine waits for its runners): the batch in hand stops and is given again later. */
  private closing = false;

  constructor(
    private readonly passes: DetectorPassProcessor,
    private readonly dataSource: DataSource,
    @InjectConfig(DETECTORS_CONFIG) private readonly config: DetectorsConfig,
  ) {}

  async react(events: readonly RecordedEvent[]): Promise<void> {
    const completed = events.map((e) => ({ event: asAnalysisRunEvent(e), recorded: e })).filter((e) => e.event.type === 'analysis_run.completed');
    if (!completed.length) return;
    await this.readModelsAt(completed[completed.length - 1].recorded);
    const runIds = completed.map((c) => (c.event.data as { runId: number }).runId);
    const runs: { id: string; organization_id: string; brand_id: string; status: string }[] = await this.dataSource.query(
      `SELECT id, organization_id, brand_id, status FROM analysis_runs WHERE id = ANY($1::bigint[])`,
      [runIds],
    );
    const byBrand = new Map<string, { organizationId: number; brandId: number; runIds: Set<number> }>();
    for (const r of runs) {
      if (r.status === 'failed') continue; // no answer at all: nothing to judge
      const key = `${r.organization_id}:${r.brand_id}`;
      const entry = byBrand.get(key) ?? { organizationId: Number(r.organization_id), brandId: Number(r.brand_id), runIds: new Set<number>() };
      entry.runIds.add(Number(r.id));
      byBrand.set(key, entry);
    }
    this.stopIfClosing();
    await this.passes.enqueue([...byBrand.values()].map((b) => ({ organizationId: b.organizationId, brandId: b.brandId, runIds: [...b.runIds], correlationId: `detectors-run-${Math.max(...b.runIds)}` })));
  }

  onModuleDestroy(): void {
    this.closing = true;
  }

  private stopIfClosing(): void {
    if (this.closing) throw new Error('shutting down: the detectors stop here and take the batch again at the next start');
  }

  /** Waits until the answers' read model has applied the feed up to `event` (throws after the configured wait: the batch is given again). */
  private async readModelsAt(event: RecordedEvent): Promise<void> {
    const deadline = Date.now() + this.config.readModelWaitMs;
    while (!(await projectionsReached(this.dataSource.manager, [...DETECTOR_READ_MODELS, 'analysis_runs'], event.position))) {
      this.stopIfClosing();
      if (Date.now() > deadline) throw new Error(`the answers' read model has not reached run completion at ${event.position.commit}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
