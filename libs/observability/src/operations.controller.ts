import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import type { Redis } from 'ioredis';
import { register } from 'prom-client';
import { EVENT_STORE, type EventStore } from '@libs/event-store';
import { REDIS } from '@libs/redis';
import { Public } from '@libs/auth';

/** Liveness, readiness and Prometheus metrics: unauthenticated, outside /api/v1. */
@Public()
@ApiTags('Operations')
@Controller()
export class OperationsController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly db: TypeOrmHealthIndicator,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  /** The process is alive and serving. */
  @Get('health')
  @ApiOperation({ summary: 'Liveness: the process is alive and serving' })
  @ApiOkResponse({ description: 'Alive', schema: { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['ok'] } } } })
  alive(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** The process can do its work: PostgreSQL, Redis and the event store answer. */
  @Get('ready')
  @ApiOperation({ summary: 'Readiness: PostgreSQL, Redis and the event store answer', description: '503 when one of them does not.' })
  @HealthCheck()
  ready() {
    return this.health.check([
      () => this.db.pingCheck('database').withTimeout(2000),
      () =>
        this.indicators
          .check('redis')
          .attempt(async () => {
            await this.redis.ping();
          })
          .withTimeout(2000),
      () =>
        this.indicators
          .check('eventStore')
          .attempt(async () => {
            await this.store.ping();
            return { kind: this.store.kind };
          })
          .withTimeout(3000),
    ]);
  }

  @Get('metrics')
  @ApiOperation({ summary: 'Prometheus metrics (text exposition format)' })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Metrics in the Prometheus text format', content: { 'text/plain': { schema: { type: 'string' } } } })
  @Header('Content-Type', register.contentType)
  metrics(): Promise<string> {
    return register.metrics();
  }
}
