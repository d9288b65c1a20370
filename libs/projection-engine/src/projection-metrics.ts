import { Injectable } from '@nestjs/common';
import { Counter, Gauge, register } from 'prom-client';
import type { FeedPosition } from '@libs/event-store';

function metric<T>(name: string, make: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? make();
}

/** Prometheus metrics of the projectors running in this process. */
@Injectable()
export class ProjectionMetrics {
  private readonly applied = metric(
    'projection_events_applied_total',
    () => new Counter({ name: 'projection_events_applied_total', help: 'Events applied by each projector', labelNames: ['projector'] }),
  );
  private readonly lastBatch = metric(
    'projection_last_batch_timestamp_seconds',
    () => new Gauge({ name: 'projection_last_batch_timestamp_seconds', help: 'When each projector last applied a batch', labelNames: ['projector'] }),
  );

  batchApplied(projector: string, events: number, _position: FeedPosition): void {
    this.applied.inc({ projector }, events);
    this.lastBatch.set({ projector }, Date.now() / 1000);
  }
}

/** A gauge of each projector's lag (readable events after its position), computed at scrape time. */
export function registerLagGauge(lagOf: () => Promise<{ projector: string; lag: number }[]>): void {
  register.removeSingleMetric('projection_lag_events');
  new Gauge({
    name: 'projection_lag_events',
    help: 'Events in the feed that each projector running here has not applied yet',
    labelNames: ['projector'],
    async collect() {
      for (const { projector, lag } of await lagOf()) this.set({ projector }, lag);
    },
  });
}
