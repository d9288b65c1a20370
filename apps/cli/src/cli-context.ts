import type { DataSource } from 'typeorm';
import type { AppConfig } from '@libs/config';
import { createDataSource } from '@libs/database';
import { EventSchemaRegistry, createEventStore, type EventStore } from '@libs/event-store';
import { loadServiceConfig } from '../../composition/config';

/** What CLI commands work with, opened lazily and closed once at the end. */
export class CliContext {
  readonly config: AppConfig = loadServiceConfig();
  private ds: DataSource | null = null;
  private es: Promise<EventStore> | null = null;

  async dataSource(): Promise<DataSource> {
    if (!this.ds) {
      this.ds = createDataSource(this.config.databaseUrl, 4);
      await this.ds.initialize();
    }
    return this.ds;
  }

  eventStore(): Promise<EventStore> {
    this.es ??= createEventStore(this.config, new EventSchemaRegistry());
    return this.es;
  }

  async close(): Promise<void> {
    await (await this.es)?.close();
    await this.ds?.destroy();
  }
}

/** Prints with BigInt values as strings. */
export function toJson(value: unknown, space?: number): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), space);
}

export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}
