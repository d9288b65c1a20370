import { Histogram, collectDefaultMetrics, register } from 'prom-client';
import type { FastifyInstance } from 'fastify';

let defaultsCollected = false;

/** Process metrics (CPU, memory, event loop) once per process. */
export function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics();
}

/** Request latency by method, route template and status, recorded by a Fastify hook. */
export function instrumentHttp(fastify: FastifyInstance): void {
  register.removeSingleMetric('http_request_duration_seconds');
  const histogram = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route template',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  });
  fastify.addHook('onResponse', async (request, reply) => {
    histogram.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
}
