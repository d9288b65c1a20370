import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EVENT_STORE, type EventStore } from '@libs/event-store';
import { answerStreamId } from '../domain';
import { analyseAnswer } from '../shared/analyse-answer';
import { answerRunner, type AnswerRunner } from '../shared/analysis-streams';
import { BrandAccess } from '@libs/tenancy';
import { TrackedBrands } from '../shared/tracked-brands';

export interface ReanalysisReport {
  brandId: number;
  since: string;
  /** Recorded answers of the brand asked since the day. */
  answers: number;
  /** Answers whose analysis changed: a new `answer.analysed` was appended. */
  reanalysed: number;
  /** Answers whose analysis came out the same (nothing appended). */
  unchanged: number;
  engineVersion: string;
}

const PAGE = 500;
const CONCURRENCY = 8;

/**
 * Re-analyses a brand's recorded answers with the current engine and the brand's current names,
 * aliases and domains (`cli answers reanalyze`): the answer's decider records a new
 * `answer.analysed` where the analysis changes, appended at the revision read (a concurrent
 * analysis wins, and the answer is decided again on it); projections keep the latest. Answers
 * are found through the results read model (those recorded since `since`, oldest first).
 */
@Injectable()
export class AnswerReanalyzer {
  private readonly answers: AnswerRunner;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(EVENT_STORE) store: EventStore,
    private readonly brands: TrackedBrands,
    private readonly brandAccess: BrandAccess,
  ) {
    this.answers = answerRunner(store, { maxAttempts: 3, conflict: (streamId) => new Error(`answer ${streamId}: kept changing while being re-analysed`) });
  }

  async reanalyze(brandId: number, since: string, onProgress?: (done: number, total: number) => void): Promise<ReanalysisReport> {
    const owner = await this.brandAccess.ownerOf(brandId);
    if (!owner) throw new RangeError(`brand ${brandId} does not exist`);
    const organizationId = owner.organizationId;
    this.brands.forget(brandId);
    const tracked = await this.brands.of(organizationId, brandId);
    if (!tracked) throw new RangeError(`brand ${brandId} does not exist`);
    const [{ n: total }]: { n: number }[] = await this.dataSource.query(
      `SELECT count(*)::int AS n FROM analysis_results WHERE brand_id = $1 AND status = 'answered' AND asked_at >= $2::date`,
      [brandId, since],
    );
    const report: ReanalysisReport = { brandId, since, answers: 0, reanalysed: 0, unchanged: 0, engineVersion: '' };
    let after = '';
    let afterAt = '-infinity';
    for (;;) {
      const page: { id: string; run_id: string; n: number; asked_at: Date }[] = await this.dataSource.query(
        `SELECT id, run_id, n, asked_at FROM analysis_results WHERE brand_id = $1 AND status = 'answered' AND asked_at >= $2::date
           AND (asked_at, id) > ($3::timestamptz, $4) ORDER BY asked_at, id LIMIT ${PAGE}`,
        [brandId, since, afterAt, after],
      );
      if (!page.length) break;
      for (let k = 0; k < page.length; k += CONCURRENCY) {
        await Promise.all(
          page.slice(k, k + CONCURRENCY).map(async (row) => {
            const changed = await this.reanalyseOne(Number(row.run_id), row.n, tracked);
            report.answers++;
            if (changed === null) return;
            report.engineVersion = changed.engineVersion;
            if (changed.appended) report.reanalysed++;
            else report.unchanged++;
          }),
        );
        onProgress?.(report.answers, total);
      }
      const last = page[page.length - 1];
      after = last.id;
      afterAt = last.asked_at.toISOString();
    }
    return report;
  }

  /** Analyses one answer again; appends when the result differs from its latest analysis. Null: no recorded answer. */
  private async reanalyseOne(runId: number, n: number, tracked: NonNullable<Awaited<ReturnType<TrackedBrands['of']>>>): Promise<{ appended: boolean; engineVersion: string } | null> {
    const streamId = answerStreamId(runId, n);
    const answer = await this.answers.load(streamId);
    const recorded = answer.state.ending;
    if (recorded?.type !== 'answer.recorded') return null;
    // The recorded answer never changes: its analysis is made once, and decided again on the newer state after a conflict.
    const analysis = analyseAnswer(recorded.data.text, recorded.data.providerCitations, tracked);
    const result = await this.answers.run(streamId, () => ({ kind: 'reanalyse', analysis, analysedAt: new Date().toISOString() }), { organizationId: recorded.data.organizationId, actor: 'cli:reanalyze' }, answer);
    return { appended: result.events.length > 0, engineVersion: analysis.engineVersion };
  }
}
