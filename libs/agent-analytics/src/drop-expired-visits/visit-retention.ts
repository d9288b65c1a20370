import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectConfig } from '@libs/config';
import { PeriodicService } from '@libs/queue';
import { addDays, utcDay } from '@libs/metrics';
import { AGENT_ANALYTICS_CONFIG, type AgentAnalyticsConfig } from '../agent-analytics.config';

export interface RetentionResult {
  /** The first day kept. */
  keepFrom: string;
  droppedPartitions: string[];
  deletedRollupRows: number;
}

/**
 * Retention (AGENT_RETENTION_DAYS, default 400): whole day partitions of bot_visits older than
 * the period are detached (concurrently: writes to other days go on) and dropped; rollup rows of
 * those days are deleted; idempotency keys live a week.
 */
@Injectable()
export class VisitRetention {
  constructor(
    private readonly dataSource: DataSource,
    @InjectConfig(AGENT_ANALYTICS_CONFIG) private readonly config: AgentAnalyticsConfig,
  ) {}

  async dropExpired(today: string = utcDay(Date.now())): Promise<RetentionResult> {
    const keepFrom = addDays(today, -(this.config.retentionDays - 1));
    const partitions: { name: string }[] = await this.dataSource.query(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
        WHERE p.relname = 'bot_visits' AND c.relname ~ '^bot_visits_p[0-9]{8}$' ORDER BY c.relname`,
    );
    const cutoff = `bot_visits_p${keepFrom.replace(/-/g, '')}`;
    const dropped: string[] = [];
    for (const { name } of partitions.filter((p) => p.name < cutoff)) {
      await this.dataSource.query(`ALTER TABLE bot_visits DETACH PARTITION ${name} CONCURRENTLY`);
      await this.dataSource.query(`DROP TABLE ${name}`);
      dropped.push(name);
    }
    let deleted = 0;
    for (const table of ['agent_bot_daily', 'agent_page_daily', 'agent_page_totals_daily', 'ai_referral_daily']) {
      const [, count] = (await this.dataSource.query(`DELETE FROM ${table} WHERE day < $1::date`, [keepFrom])) as [unknown, number];
      deleted += count ?? 0;
    }
    await this.dataSource.query(`DELETE FROM agent_ingest_batches WHERE created_at < now() - interval '7 days'`);
    return { keepFrom, droppedPartitions: dropped, deletedRollupRows: deleted };
  }
}

/** Runs retention in the worker every AGENT_RETENTION_CHECK_MS (and at start). */
@Injectable()
export class RetentionSchedule extends PeriodicService {
  constructor(
    private readonly retention: VisitRetention,
    @InjectConfig(AGENT_ANALYTICS_CONFIG) config: AgentAnalyticsConfig,
  ) {
    super({
      name: 'retention',
      logger: new Logger('VisitRetention'),
      everyMs: config.retentionCheckMs,
      firstAfterMs: 0,
      onResult: (r, logger) => {
        const { droppedPartitions } = r as Awaited<ReturnType<VisitRetention['dropExpired']>>;
        if (droppedPartitions.length) logger.log(`dropped ${droppedPartitions.join(', ')}`);
      },
    });
  }

  protected pass(): ReturnType<VisitRetention['dropExpired']> {
    return this.retention.dropExpired();
  }
}
