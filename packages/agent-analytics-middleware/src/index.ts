import type { IncomingMessage, ServerResponse } from 'node:http';
import { VisitBatcher, type AgentAnalyticsOptions, type Visit } from './batcher';

export { VisitBatcher, isWorthReporting, type AgentAnalyticsOptions, type Visit, type BatcherStats } from './batcher';

/** The headers Web Bot Auth verification needs (RFC 9421 signatures of AI agents). */
const SIGNATURE_HEADERS = ['signature', 'signature-input', 'signature-agent'];

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** A finished request as the ingest API's entry. */
export function visitOf(req: IncomingMessage, status: number, startedAt: number, ip: string | undefined, bytes: number | null): Visit {
  const headers: Record<string, string> = {};
  for (const h of SIGNATURE_HEADERS) {
    const v = header(req, h);
    if (v !== undefined) headers[h] = v;
  }
  return {
    timestamp: new Date(startedAt).toISOString(),
    method: req.method ?? 'GET',
    host: (header(req, 'host') ?? 'localhost').toLowerCase(),
    path: (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '/',
    status,
    ip: ip ?? req.socket?.remoteAddress ?? '0.0.0.0',
    userAgent: header(req, 'user-agent') ?? '',
    referer: header(req, 'referer') ?? null,
    bytes,
    durationMs: Math.max(0, Math.round(Date.now() - startedAt)),
    ...(Object.keys(headers).length ? { headers } : {}),
  };
}

type ExpressNext = (error?: unknown) => void;

/**
 * Express (or Connect) middleware: `app.use(expressAgentAnalytics({ endpoint, apiKey }))`. It
 * records each response when it finishes and hands it to the batcher; the request itself is
 * never delayed, and nothing it does can fail it. `middleware.batcher` gives the stats and
 * `close()` (call it at shutdown to send the last visits).
 */
export function expressAgentAnalytics(options: AgentAnalyticsOptions | VisitBatcher): ((req: IncomingMessage, res: ServerResponse, next: ExpressNext) => void) & { batcher: VisitBatcher } {
  const batcher = options instanceof VisitBatcher ? options : new VisitBatcher(options);
  const middleware = (req: IncomingMessage, res: ServerResponse, next: ExpressNext) => {
    const startedAt = Date.now();
    res.once('finish', () => {
      try {
        const length = Number(res.getHeader('content-length'));
        batcher.push(visitOf(req, res.statusCode, startedAt, (req as IncomingMessage & { ip?: string }).ip, Number.isFinite(length) ? length : null));
      } catch {
        /* never the host's problem */
      }
    });
    next();
  };
  return Object.assign(middleware, { batcher });
}

interface FastifyLike {
  addHook(name: 'onResponse', hook: (request: { raw: IncomingMessage; ip?: string }, reply: { statusCode: number; getHeader(name: string): unknown; elapsedTime?: number }, done: () => void) => void): unknown;
  addHook(name: 'onClose', hook: (instance: unknown, done: () => void) => void): unknown;
}

/**
 * Fastify plugin: `fastify.register(fastifyAgentAnalytics, { endpoint, apiKey })`. Reports in
 * `onResponse` (after the answer is sent) and sends the last visits when Fastify closes. Wrap it
 * with `fastify-plugin` (or register it at the root) so it sees every route.
 */
export function fastifyAgentAnalytics(fastify: FastifyLike, options: AgentAnalyticsOptions | { batcher: VisitBatcher }, done: (error?: Error) => void): void {
  let batcher: VisitBatcher;
  try {
    batcher = 'batcher' in options ? options.batcher : new VisitBatcher(options);
  } catch (error) {
    done(error as Error);
    return;
  }
  fastify.addHook('onResponse', (request, reply, next) => {
    try {
      const elapsed = typeof reply.elapsedTime === 'number' ? reply.elapsedTime : 0;
      const length = Number(reply.getHeader('content-length'));
      batcher.push(visitOf(request.raw, reply.statusCode, Date.now() - elapsed, request.ip, Number.isFinite(length) ? length : null));
    } catch {
      /* never the host's problem */
    }
    next();
  });
  fastify.addHook('onClose', (_instance, next) => {
    void batcher.close().finally(next);
  });
  done();
}
// Lets Fastify register it at the root without fastify-plugin (skip-override).
(fastifyAgentAnalytics as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
