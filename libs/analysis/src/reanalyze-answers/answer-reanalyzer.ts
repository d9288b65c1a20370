import { isDeepStrictEqual } from 'node:util';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EVENT_STORE, ExpectedRevision, WrongExpectedRevisionError, type EventStore } from '@libs/event-store';
import { answerEvents, answerStreamId, type AnswerAnalysed, type AnswerEvent } from '../domain';
import { analyseAnswer } from '../shared/analyse-answer';
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
 * aliases and domains (`cli answers reanalyze`): each answer whose analysis changes gets a new
 * `answer.analysed` event, appended at the revision read (a concurrent analysis wins, and the
 * answer is read again); projections keep the latest. Answers are found through the results read
 * model (those recorded since `since`, oldest first).
 */
@Injectable()
export class AnswerReanalyzer {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly brands: TrackedBrands,
    private readonly brandAccess: BrandAccess,
  ) {}

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
    for (let attempt = 0; attempt < 3; attempt++) {
      const stored = await this.store.readStream(streamId);
      const events = stored.map((e) => answerEvents.decode(e) as AnswerEvent);
      const recorded = events.find((e) => e.type === 'answer.recorded');
      if (recorded?.type !== 'answer.recorded') return null;
      const latest = [...events].reverse().find((e): e is AnswerAnalysed => e.type === 'answer.analysed');
      const analysis = analyseAnswer(recorded.data.text, recorded.data.providerCitations, tracked);
      // Compared as values: the store may give the keys of stored JSON back in another order.
      if (latest && latest.data.engineVersion === analysis.engineVersion && isDeepStrictEqual(latest.data.entities, analysis.entities) && isDeepStrictEqual(latest.data.citations, analysis.citations)) {
        return { appended: false, engineVersion: analysis.engineVersion };
      }
      const d = recorded.data;
      try {
        await this.store.appendToStream(
          streamId,
          [{ type: 'answer.analysed', data: { runId: d.runId, n: d.n, organizationId: d.organizationId, brandId: d.brandId, promptId: d.promptId, query: d.query, provider: d.provider, askedAt: d.askedAt, analysedAt: new Date().toISOString(), ...analysis }, metadata: { organizationId: d.organizationId, actor: 'cli:reanalyze' } }],
          ExpectedRevision.exact(stored.length - 1),
        );
        return { appended: true, engineVersion: analysis.engineVersion };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
      }
    }
    throw new Error(`answer ${streamId}: kept changing while being re-analysed`);
  }
}
