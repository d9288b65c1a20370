import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger as PinoInstance } from 'pino';
import { acceptFormBodiesOnOAuthOnly, type Authenticator } from '@libs/auth';
import { installJsonBodyParser } from '@libs/http';
import { collectProcessMetrics, instrumentHttp, logRequests, requestIdOf } from '@libs/observability';
import type { RateLimiter } from '@libs/rate-limit';
import type { UsageRecorder } from '@libs/usage';
import { installRequestGate } from './request-gate';

/** Fastify's request id: a sane `X-Request-Id` from the caller, or a new one (stage 1). */
export const REQUEST_ID = { genReqId: requestIdOf };

export interface PipelineStages {
  /** Which requests need credentials (by method, Fastify route, raw URL). */
  needsCredentials: (method: string, route: string | undefined, url: string) => boolean;
  authenticator: Authenticator;
  limiter: RateLimiter;
  logger: PinoInstance;
  usage: UsageRecorder;
  /** The most keys and array elements a JSON body may hold (BODY_MAX_KEYS). */
  bodyMaxKeys: number;
}

/**
 * Every request passes these stages, in this order; each stage lives in its library, this file
 * only puts them in order:
 * 1. request id: taken or made when the request arrives (`REQUEST_ID`), echoed as `x-request-id`;
 * 2. gate: authenticate (libs/auth), then charge the credential's rate limit (libs/rate-limit),
 *    before the body is read;
 * 3. body rules: JSON only (text/plain is 415), at most BODY_MAX_KEYS keys and elements (counted
 *    before parsing), form bodies on /api/oauth/ only;
 * 4. metrics: latency by route template (libs/observability);
 * 5. logs: one line per request (libs/observability);
 * 6. usage: the authenticated request counted for its credential (libs/usage), flushed on close.
 * Then Nest's guards (scope), pipes (validation) and the controller.
 */
export function installRequestPipeline(fastify: FastifyInstance, stages: PipelineStages): void {
  fastify.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  installRequestGate(fastify, stages.needsCredentials, stages.authenticator, stages.limiter);
  fastify.removeContentTypeParser('text/plain');
  installJsonBodyParser(fastify, stages.bodyMaxKeys);
  acceptFormBodiesOnOAuthOnly(fastify, stages.bodyMaxKeys);
  collectProcessMetrics();
  instrumentHttp(fastify);
  logRequests(fastify, stages.logger);
  fastify.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    stages.usage.onResponse(request, reply);
    done();
  });
  // Requests that finish while the server closes (after the recorder's shutdown flush) are written here.
  fastify.addHook('onClose', (_instance: FastifyInstance, done: () => void) => {
    void stages.usage.flush().finally(done);
  });
}
