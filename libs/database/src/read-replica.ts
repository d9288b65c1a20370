import { Inject, Injectable, Optional, type OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@libs/config';
import { poolOf } from '@libs/sql';

/**
 * Where lag-tolerant reads go (DESIGN §18, issue 34 part 1): the analytics figures, and so the
 * dashboard and MCP tools that read them. With DATABASE_READ_URL, a pool of its own on the
 * streaming replica; without, the primary's pool (nothing changes). Reads that must see a
 * caller's own write (an opportunity after its transition, anything a command handler reads)
 * never come here: they use the DataSource, which is the primary (docs/decisions.md, "Issue 34,
 * part 1").
 */
@Injectable()
export class ReadReplica implements OnApplicationShutdown {
  private replica: Pool | null = null;

  constructor(
    private readonly dataSource: DataSource,
    @Optional() @Inject(APP_CONFIG) private readonly config?: AppConfig,
  ) {}

  /** Whether reads go to a replica (DATABASE_READ_URL is set). */
  get separate(): boolean {
    return !!this.config?.databaseReadUrl;
  }

  /** The pool for lag-tolerant reads. */
  get pool(): Pool {
    const url = this.config?.databaseReadUrl;
    if (!url) return poolOf(this.dataSource);
    this.replica ??= new Pool({ connectionString: url, max: this.config!.databasePoolSize, connectionTimeoutMillis: 5000 });
    return this.replica;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.replica?.end().catch(() => undefined);
  }
}

/** The pool for a lag-tolerant read: the replica's when one is configured, else the primary's. */
export function lagTolerantPool(dataSource: DataSource, replica: ReadReplica | null | undefined): Pool {
  return replica ? replica.pool : poolOf(dataSource);
}
