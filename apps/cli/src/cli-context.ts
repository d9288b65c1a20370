import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext, Type } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AppConfig } from '@libs/config';
import { EVENT_STORE, type EventStore } from '@libs/event-store';
import { provideLocalServices, type LocalServices } from '@libs/local-services';
import { loadServiceConfig } from '../../composition/config';
import { CliModule } from './cli.module';

/**
 * What CLI commands work with: the validated configuration and a Nest application context
 * (CliModule), opened on first use and closed once at the end. Commands that need no database
 * (`db migrate` before the database exists, `answers analyze`) never open it. Without
 * DATABASE_URL or REDIS_URL, the configuration names the servers `npm start` uses: the default
 * addresses, or the embedded PostgreSQL and redis-server it started (or, when it is not running,
 * ones started for this command and stopped after it).
 */
export class CliContext {
  private app: Promise<INestApplicationContext> | null = null;

  private constructor(
    readonly config: AppConfig,
    private readonly services: LocalServices,
  ) {}

  static async open(): Promise<CliContext> {
    const loaded = loadServiceConfig();
    const services = await provideLocalServices(process.env, loaded, (line) => process.stderr.write(`${line}\n`));
    try {
      return new CliContext(loadServiceConfig({ ...process.env, ...services.env }), services);
    } catch (error) {
      await services.release();
      throw error;
    }
  }

  /** The application context (created on first use). */
  context(): Promise<INestApplicationContext> {
    this.app ??= NestFactory.createApplicationContext(CliModule.forRoot(this.config), { logger: false, abortOnError: false });
    return this.app;
  }

  /** A service of the context, e.g. `await ctx.get(TenancyRepository)`. */
  async get<T>(token: Type<T> | symbol): Promise<T> {
    return (await this.context()).get<T>(token as Type<T>);
  }

  dataSource(): Promise<DataSource> {
    return this.get(DataSource);
  }

  eventStore(): Promise<EventStore> {
    return this.get<EventStore>(EVENT_STORE);
  }

  async close(): Promise<void> {
    const app = await this.app?.catch(() => null);
    await app?.close();
    await this.services.release();
  }
}

/** Prints with BigInt values as strings. */
export function toJson(value: unknown, space?: number): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), space);
}

export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}
