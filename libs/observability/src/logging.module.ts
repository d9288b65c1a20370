import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Module, RequestMethod } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { APP_CONFIG, type AppConfig } from '../../config/src';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A caller's X-Request-Id when it is sane, otherwise a new UUID (Fastify's genReqId). */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** pino-http: the id Fastify gave the request (middie copies it onto the raw request). */
function loggedRequestId(req: IncomingMessage): string {
  const id = (req as IncomingMessage & { id?: unknown }).id;
  return typeof id === 'string' ? id : requestIdOf(req);
}

/** pino JSON logs, one line per request with its request id; credentials redacted. */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        // nestjs-pino's default route pattern ('{/*splat}') matches nothing under platform-fastify 12.
        forRoutes: [{ path: '{*splat}', method: RequestMethod.ALL }],
        pinoHttp: {
          level: config.logLevel,
          genReqId: loggedRequestId,
          redact: ['req.headers["x-api-key"]', 'req.headers.authorization', 'req.headers.cookie'],
          customLogLevel: (_req: IncomingMessage, res: ServerResponse, err?: Error) =>
            err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
          autoLogging: { ignore: (req: IncomingMessage) => req.url === '/health' || req.url === '/metrics' },
        },
      }),
    }),
  ],
})
export class LoggingModule {}
