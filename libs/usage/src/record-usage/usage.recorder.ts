import { Injectable, Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthenticatedRequest } from '@libs/auth';
import { InjectConfig } from '@libs/config';
import { USAGE_CONFIG, type UsageConfig } from '../usage.config';
import { UsageCounters } from '../domain/usage-counters';
import { UsageRepository } from '../usage.repository';

const DAY_MS = 86_400_000;

const USAGE_ENDPOINT = Symbol('usageEndpoint');

/**
 * Counts this request under `endpoint` instead of its route template: one Fastify route serving
 * several operations (POST /mcp serves every MCP tool) names the operation it served, e.g. the
 * tool's name.
 */
export function labelUsage(request: FastifyRequest, endpoint: string): void {
  (request as FastifyRequest & { [USAGE_ENDPOINT]?: string })[USAGE_ENDPOINT] = endpoint;
}

/**
 * Counts every authenticated request (`onResponse`, a Fastify onResponse hook the API's request
 * pipeline installs: requests refused by authentication have no principal and are not counted;
 * 429s are) in memory, and writes the counters in one multi-row upsert every USAGE_FLUSH_MS and at
 * shutdown (and when the server closes: the pipeline calls `flush`). Nothing touches the
 * database on the request path. A failed flush keeps its counters for the next one.
 */
@Injectable()
export class UsageRecorder implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('Usage');
  private readonly counters = new UsageCounters();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<number> = Promise.resolve(0);
  private day = '';
  private dayEnds = 0;

  constructor(
    private readonly repository: UsageRepository,
    @InjectConfig(USAGE_CONFIG) private readonly config: UsageConfig,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), this.config.usageFlushMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }

  /** Counts one answered request (the pipeline's onResponse hook). */
  onResponse(request: FastifyRequest, reply: FastifyReply): void {
    const principal = (request as AuthenticatedRequest).principal;
    if (principal === undefined) return;
    const now = Date.now();
    if (now >= this.dayEnds) {
      this.day = new Date(now).toISOString().slice(0, 10);
      this.dayEnds = now - (now % DAY_MS) + DAY_MS;
    }
    const endpoint = (request as FastifyRequest & { [USAGE_ENDPOINT]?: string })[USAGE_ENDPOINT] ?? request.routeOptions.url ?? 'unmatched';
    this.counters.record(principal, this.day, request.method, endpoint, reply.statusCode, reply.elapsedTime);
  }

  /** Writes what has been counted so far; resolves with the number of rows written. Flushes never overlap. */
  flush(): Promise<number> {
    this.flushing = this.flushing.then(async () => {
      if (this.counters.size === 0) return 0;
      const rows = this.counters.drain();
      try {
        await this.repository.upsert(rows);
        return rows.length;
      } catch (error) {
        this.counters.restore(rows);
        this.logger.warn(`usage flush of ${rows.length} rows failed, keeping them for the next one: ${(error as Error).message}`);
        return 0;
      }
    });
    return this.flushing;
  }
}
