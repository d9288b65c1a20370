import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectConfig } from '@libs/config';
import { PeriodicTask } from '@libs/queue';
import { ANALYSIS_CONFIG, type AnalysisConfig } from '../analysis.config';
import { RunRequests } from '../shared/run-requests';
import { TrackedPromptsRepository } from '../tracked-prompts.repository';

/** How long after a brand's last scheduled run the next one is due. */
const PERIOD = { daily: '1 day', weekly: '7 days' } as const;

/**
 * Runs every due brand's active prompts (trigger `schedule`, DESIGN §13.1). A brand is due when it
 * has active prompts, its schedule is not `off` (daily when never set), and its last scheduled run
 * is at least a period old. Worker processes may all poll: a brand is claimed by moving its
 * `last_run_at` in one conditional statement, which only one of them wins. A process that dies
 * between the claim and the run's request skips that period's run (the next period runs as
 * usual): a period is never run twice.
 */
@Injectable()
export class RunScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('RunScheduler');
  private readonly task: PeriodicTask;

  constructor(
    private readonly dataSource: DataSource,
    private readonly runs: RunRequests,
    private readonly prompts: TrackedPromptsRepository,
    @InjectConfig(ANALYSIS_CONFIG) config: AnalysisConfig,
  ) {
    this.task = new PeriodicTask({ name: 'scheduling', logger: this.logger, everyMs: config.schedulerPollMs, firstAfterMs: 0, run: () => this.runDue() });
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }

  /** Requests a run for every due brand; returns the run ids (for tests and the CLI). */
  async runDue(now: Date = new Date()): Promise<number[]> {
    const due: { id: string; organization_id: string }[] = await this.dataSource.query(
      // The brands with an active prompt, from analysis's own tables (a prompt names its brand and
      // the brand's organisation; prompts go with their brand): no read of tenancy's `brands`.
      `SELECT p.brand_id AS id, min(p.organization_id) AS organization_id FROM tracked_prompts p LEFT JOIN brand_schedules s ON s.brand_id = p.brand_id
        WHERE p.is_active AND coalesce(s.schedule, 'daily') <> 'off'
          AND (s.last_run_at IS NULL OR s.last_run_at <= $1::timestamptz - CASE coalesce(s.schedule, 'daily') WHEN 'weekly' THEN interval '${PERIOD.weekly}' ELSE interval '${PERIOD.daily}' END)
        GROUP BY p.brand_id ORDER BY p.brand_id LIMIT 1000`,
      [now.toISOString()],
    );
    const started: number[] = [];
    for (const row of due) {
      const brand = { id: Number(row.id), organizationId: Number(row.organization_id) };
      if (!(await this.claim(brand, now))) continue;
      const prompts = await this.prompts.active(brand);
      if (!prompts.length) continue;
      const run = await this.runs.request({
        organizationId: brand.organizationId,
        brandId: brand.id,
        trigger: 'schedule',
        questions: prompts.map((p) => ({ promptId: p.id, query: p.query, providers: p.providers, market: { country: p.country, language: p.language } })),
        requestedAt: now,
        actor: 'scheduler',
      });
      started.push(run.runId);
    }
    if (started.length) this.logger.debug(`scheduled ${started.length} run(s)`);
    return started;
  }

  /** Moves the brand's last run to now if it is still due; true for the one process that did. */
  private async claim(brand: { id: number; organizationId: number }, now: Date): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO brand_schedules (brand_id, organization_id, schedule, last_run_at) VALUES ($1, $2, 'daily', $3)
       ON CONFLICT (brand_id) DO UPDATE SET last_run_at = EXCLUDED.last_run_at
        WHERE brand_schedules.schedule <> 'off' AND (brand_schedules.last_run_at IS NULL OR brand_schedules.last_run_at <= $3::timestamptz -
          CASE brand_schedules.schedule WHEN 'weekly' THEN interval '${PERIOD.weekly}' ELSE interval '${PERIOD.daily}' END)
       RETURNING brand_id`,
      [brand.id, brand.organizationId, now.toISOString()],
    );
    return rows.length > 0;
  }
}
