import { Injectable, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectConfig } from '@libs/config';
import { derivedTableSql, lockProjectorShard, PROJECTION_CONFIG, quoteIdent, type ProjectionConfig } from '@libs/projection-engine';
import { QueueModule, Queues, retriedJobs, type QueueDefinition, type QueueProducer } from '@libs/queue';
import { ANSWER_DAILY_ROLLUPS, ROLLUP_COUNTER_COLUMNS, ROLLUP_COUNTER_NAMES, ROLLUP_COUNTERS, rollupCellColumns } from '@libs/visibility';
import { ANSWER_ROLLUP_SOURCES, answerRollupsProjector } from './answer-rollups.projector';

/** One brand's rollups to recompute. */
export interface BrandRollupRebuildJob {
  organizationId: number;
  brandId: number;
  /** What makes the job id: queueing the same request again queues nothing twice while the job is kept. */
  requestId: string;
}

export interface BrandRollupRebuildResult {
  brandId: number;
  /** Rollup rows the brand has after the rebuild (cells of its answers' latest analyses, and zeroed ones kept). */
  rows: number;
  /** Answers (latest analyses) summed. */
  answers: number;
  /** The projector checkpoint (shard) whose lock was held. */
  checkpoint: string;
}

const CELL = (field: string, type: string) => `(s.contribution #>> '{cell,${field}}')::${type}`;
const KEY_COLUMNS = ANSWER_DAILY_ROLLUPS.key;
const COLUMNS = Object.keys(ANSWER_DAILY_ROLLUPS.columns);
const CELL_COLUMNS = rollupCellColumns(ANSWER_DAILY_ROLLUPS);

/** A brand's rollup rows as the answers' latest contributions (answer_rollup_sources) sum them, per cell. */
const BRAND_SUMS = `
  SELECT ${CELL('organization_id', 'bigint')} AS organization_id, ${CELL('client_id', 'bigint')} AS client_id, ${CELL('brand_id', 'bigint')} AS brand_id,
         ${CELL('day', 'date')} AS day, ${CELL('provider', 'text')} AS provider, ${CELL('prompt_id', 'bigint')} AS prompt_id, ${CELL('query', 'text')} AS query,
         coalesce(${CELL('country', 'text')}, '') AS country, coalesce(${CELL('language', 'text')}, '') AS language, e.key AS entity_id,
         ${ROLLUP_COUNTER_NAMES.map((k, i) => `sum(coalesce((e.value->>${i})::${ROLLUP_COUNTERS[k] === 'whole' ? 'int' : 'float8'}, 0)) AS ${ROLLUP_COUNTER_COLUMNS[i]}`).join(', ')}
    FROM ${ANSWER_ROLLUP_SOURCES.table} s CROSS JOIN LATERAL jsonb_each(s.contribution->'entities') AS e
   WHERE ${CELL('brand_id', 'bigint')} = $1
   GROUP BY ${CELL_COLUMNS.map((_, i) => i + 1).join(', ')}`;

/**
 * Recomputes one brand's rows of `answer_daily_rollups` (and of the projector's derived tables)
 * from `answer_rollup_sources` — each answer's latest contribution, which the projector keeps in
 * the same transactions as the rollups — in one transaction holding the projector's lock of the
 * brand's shard (`lockProjectorShard`): the shard's live batch in progress commits first, the next
 * one waits, so no event is counted twice or lost. The brand's rows are zeroed, then each cell of
 * its answers gets its sums: a cell no current analysis touches stays at zero, as the live
 * projector and a full rebuild leave it. Other brands' rows are not written.
 */
export async function rebuildBrandRollups(dataSource: DataSource, brand: { organizationId: number; brandId: number }, shards: number): Promise<BrandRollupRebuildResult> {
  return dataSource.transaction(async (m) => {
    const checkpoint = await lockProjectorShard(m, answerRollupsProjector.name, brand.organizationId, shards);
    const table = quoteIdent(ANSWER_DAILY_ROLLUPS.table);
    await m.query(`UPDATE ${table} SET ${ROLLUP_COUNTER_COLUMNS.map((c) => `${c} = 0`).join(', ')} WHERE brand_id = $1`, [brand.brandId]);
    await m.query(
      `INSERT INTO ${table} (${COLUMNS.join(', ')}) ${BRAND_SUMS}
       ON CONFLICT (${KEY_COLUMNS.join(', ')}) DO UPDATE SET ${['organization_id', 'client_id', ...ROLLUP_COUNTER_COLUMNS].map((c) => `${c} = EXCLUDED.${c}`).join(', ')}`,
      [brand.brandId],
    );
    for (const d of answerRollupsProjector.derived ?? []) {
      await m.query(`DELETE FROM ${quoteIdent(d.table)} WHERE brand_id = $1`, [brand.brandId]);
      await m.query(derivedTableSql(d, quoteIdent(d.from), quoteIdent(d.table), 'brand_id = $1'), [brand.brandId]);
    }
    const [{ rows }]: { rows: number }[] = await m.query(`SELECT count(*)::int AS rows FROM ${table} WHERE brand_id = $1`, [brand.brandId]);
    const [{ answers }]: { answers: number }[] = await m.query(
      `SELECT count(*)::int AS answers FROM ${ANSWER_ROLLUP_SOURCES.table} s WHERE ${CELL('brand_id', 'bigint')} = $1`,
      [brand.brandId],
    );
    return { brandId: brand.brandId, rows, answers, checkpoint };
  });
}

/** `{rollup-rebuilds}`: one job per brand, any worker takes it (ROLLUP_REBUILD_CONCURRENCY at once per process). */
export function rollupRebuildQueue(config: Pick<ProjectionConfig, 'rollupRebuildConcurrency'>): QueueDefinition {
  return { name: '{rollup-rebuilds}', concurrency: config.rollupRebuildConcurrency, lockDuration: 120_000, stalledInterval: 30_000, maxStalledCount: 3, ...retriedJobs(2000) };
}

export const rollupRebuildJobId = (job: Pick<BrandRollupRebuildJob, 'requestId' | 'brandId'>) => `rollups-${job.requestId}-brand-${job.brandId}`;

/** Queues brands' rollup rebuilds (the CLI) and tells whether they are all done. */
@Injectable()
export class BrandRollupRebuilds {
  private producer: QueueProducer<BrandRollupRebuildJob> | null = null;

  constructor(
    private readonly queues: Queues,
    @InjectConfig(PROJECTION_CONFIG) private readonly config: ProjectionConfig,
  ) {}

  private queue(): QueueProducer<BrandRollupRebuildJob> {
    return (this.producer ??= this.queues.producer<BrandRollupRebuildJob>(rollupRebuildQueue(this.config)));
  }

  /** Queues one job per brand; returns their ids (a job already queued under its id is not queued again). */
  async enqueue(jobs: readonly BrandRollupRebuildJob[]): Promise<string[]> {
    if (!jobs.length) return [];
    await this.queue().queue.addBulk(jobs.map((data) => ({ name: 'rebuild', data, opts: { jobId: rollupRebuildJobId(data) } })));
    return jobs.map(rollupRebuildJobId);
  }

  /** Whether no rebuild is queued or running anywhere. */
  async idle(): Promise<boolean> {
    const counts = await this.queue().queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
    return Object.values(counts).every((n) => n === 0);
  }
}

/** Runs `{rollup-rebuilds}` jobs (every worker process). */
@Injectable()
export class BrandRollupRebuildProcessor implements OnApplicationBootstrap {
  constructor(
    private readonly queues: Queues,
    private readonly dataSource: DataSource,
    @InjectConfig(PROJECTION_CONFIG) private readonly config: ProjectionConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.queues.process<BrandRollupRebuildJob, BrandRollupRebuildResult>(rollupRebuildQueue(this.config), (job) => rebuildBrandRollups(this.dataSource, job, this.config.shards));
  }
}

/** The worker's part: it works off `{rollup-rebuilds}`. */
@Module({ imports: [QueueModule], providers: [BrandRollupRebuildProcessor] })
export class RollupRebuildWorkerModule {}
