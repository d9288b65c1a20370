import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { BrandAccess } from '@libs/tenancy';
import { Queues } from '@libs/queue';
import { AnswerJudge, judgeJobId, type JudgeJob, type JudgeOutcome } from '../shared/judge/answer-judge';

export interface JudgeBackfillReport {
  brandId: number;
  since: string;
  labeller: string;
  /** Recorded answers of the brand asked since the day. */
  answers: number;
  /** Jobs enqueued on the judge provider's queue (one per answer; a job still kept from earlier counts once). */
  enqueued: number;
  /** Jobs finished by outcome (labelled: asked; cached: from the cache; fallback: the offline label stands; already: judged before). */
  outcomes: Partial<Record<JudgeOutcome | 'failed', number>>;
  /** Jobs not finished when the wait ended (no worker running, or --timeout reached). */
  pending: number;
}

const PAGE = 1000;
const POLL_MS = 500;

/**
 * `cli answers judge --brand ID --since DATE`: puts a brand's recorded answers since a day to the
 * sentiment judge, as jobs on the judge provider's answer queue (in bulk), so the workers ask
 * within that provider's concurrency and rate limits and retry as answers do; then waits for them
 * (the workers of `npm start` or `start:worker` run them), reporting progress. Answers already
 * judged with the same text, entities, prompt version and model ask nothing (their verdict is in
 * their stream or the cache).
 */
@Injectable()
export class JudgeBackfill {
  constructor(
    private readonly dataSource: DataSource,
    private readonly judge: AnswerJudge,
    private readonly brandAccess: BrandAccess,
    private readonly queues: Queues,
  ) {}

  async run(brandId: number, since: string, options: { timeoutMs: number; onProgress?: (done: number, total: number) => void }): Promise<JudgeBackfillReport> {
    const owner = await this.brandAccess.ownerOf(brandId);
    if (!owner) throw new RangeError(`brand ${brandId} does not exist`);
    const client = await this.judge.clientFor(owner.organizationId);
    const definition = this.judge.queueDefinition();
    if (!client || !definition) {
      throw new RangeError(`the sentiment judge is off for organisation ${owner.organizationId}: set SENTIMENT_JUDGE and its key, and turn it on with \`judge set --org ${owner.organizationId} --provider …\``);
    }
    const rows: { run_id: string; n: number }[] = await this.dataSource.query(
      `SELECT run_id, n FROM analysis_results WHERE brand_id = $1 AND status = 'answered' AND asked_at >= $2::date ORDER BY asked_at, id`,
      [brandId, since],
    );
    const jobs = rows.map((r) => ({ runId: Number(r.run_id), n: r.n }));
    const report: JudgeBackfillReport = { brandId, since, labeller: client.labeller, answers: jobs.length, enqueued: 0, outcomes: {}, pending: 0 };
    for (let k = 0; k < jobs.length; k += PAGE) report.enqueued += await this.judge.enqueue(jobs.slice(k, k + PAGE));

    const { queue } = this.queues.producer<JudgeJob>(definition);
    let pending = jobs.map(judgeJobId);
    const deadline = Date.now() + options.timeoutMs;
    options.onProgress?.(0, jobs.length);
    while (pending.length > 0 && Date.now() < deadline) {
      const still: string[] = [];
      for (let k = 0; k < pending.length; k += 200) {
        const ids = pending.slice(k, k + 200);
        const states = await Promise.all(ids.map((id) => queue.getJobState(id)));
        for (const [i, state] of states.entries()) {
          if (state === 'completed') {
            const job = await queue.getJob(ids[i]);
            const outcome = (job?.returnvalue as JudgeOutcome | undefined) ?? 'already';
            report.outcomes[outcome] = (report.outcomes[outcome] ?? 0) + 1;
          } else if (state === 'failed') report.outcomes.failed = (report.outcomes.failed ?? 0) + 1;
          // Removed after completing (kept an hour): done, its verdict is in the answer's stream.
          else if (state === 'unknown') report.outcomes.already = (report.outcomes.already ?? 0) + 1;
          else still.push(ids[i]);
        }
      }
      pending = still;
      options.onProgress?.(jobs.length - pending.length, jobs.length);
      if (pending.length > 0) await new Promise((r) => setTimeout(r, POLL_MS));
    }
    report.pending = pending.length;
    return report;
  }
}
