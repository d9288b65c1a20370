import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Inject, Injectable, Module, type LoggerService } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { pino, type DestinationStream, type Logger as PinoInstance } from 'pino';
import pinoPretty from 'pino-pretty';
import { APP_CONFIG, type AppConfig } from '@libs/config';
import { errorAnswered } from '@libs/http';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A caller's X-Request-Id when it is sane, otherwise a new UUID (Fastify's genReqId). */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** The process's pino logger (JSON lines on stdout): Nest's logger and the request log write through it. */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

/** Nest's start-up chatter (a line per module and per route): logged at debug, not info. */
const BOOT_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

/**
 * Names of URL parameters that carry credentials (compared without case, after percent-decoding):
 * an API key or token sent in a query string by mistake, an OAuth code, a client secret.
 */
export const CREDENTIAL_PARAMETERS: ReadonlySet<string> = new Set([
  'key',
  'api_key',
  'apikey',
  'api-key',
  'x-api-key',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'code',
  'code_verifier',
  'client_secret',
  'secret',
  'password',
]);

export const REDACTED = '[REDACTED]';

/** A URL parameter in any text (a query string or fragment): separator, name, `=`, value up to the next separator, quote, backslash or space. */
const URL_PARAMETER = /([?&#;])([^=?&#;\s"'\\<>]{1,100})=([^&#;\s"'\\<>]*)/g;

function parameterName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/**
 * `text` with the value of every credential parameter (CREDENTIAL_PARAMETERS) of every URL in it
 * replaced by [REDACTED]: `/api/v1/brands?api_key=ak_live_…&x=1` → `/api/v1/brands?api_key=[REDACTED]&x=1`.
 * Works on a whole serialised log line (JSON or not), so every field and message is covered: the
 * request's URL, an error's message and stack, a URL a worker fetched.
 */
export function redactUrlCredentials(text: string): string {
  if (!text.includes('=')) return text;
  return text.replace(URL_PARAMETER, (whole: string, separator: string, name: string, value: string) =>
    value !== '' && value !== REDACTED && CREDENTIAL_PARAMETERS.has(parameterName(name)) ? `${separator}${name}=${REDACTED}` : whole,
  );
}

/** Whether logs are pretty: LOG_FORMAT=pretty, or auto on a terminal. */
export function prettyLogs(config: Pick<AppConfig, 'logFormat'>, stdout: { isTTY?: boolean } = process.stdout): boolean {
  return config.logFormat === 'pretty' || (config.logFormat === 'auto' && stdout.isTTY === true);
}

/**
 * The root logger: JSON lines, or on a terminal (LOG_FORMAT) short pretty lines (pino-pretty: the
 * time, the level, `[context] message`, a request as `METHOD url status ms`). In both, Nest's
 * start-up chatter is debug, so a start prints a handful of lines, not forty. Every line is
 * written with the credentials in its URLs redacted (`redactUrlCredentials`). `destination`
 * replaces stdout (tests).
 */
export function createRootLogger(config: Pick<AppConfig, 'logLevel' | 'logFormat'>, destination?: DestinationStream): PinoInstance {
  const options = {
    level: config.logLevel,
    redact: ['req.headers["x-api-key"]', 'req.headers.authorization', 'req.headers.cookie'],
    hooks: {
      streamWrite: redactUrlCredentials,
      logMethod(this: PinoInstance, args: unknown[], method: (...a: unknown[]) => void, level: number) {
        const first = args[0] as { context?: unknown } | null;
        if (level === INFO && first && typeof first === 'object' && BOOT_CONTEXTS.has(first.context as string)) {
          if (this.isLevelEnabled('debug')) this.debug(...(args as [object, string]));
          return;
        }
        method.apply(this, args);
      },
    },
  };
  if (!prettyLogs(config)) return destination ? pino(options, destination) : pino(options);
  return pino(
    options,
    pinoPretty({
      ...(destination ? { destination } : {}),
      colorize: process.stdout.isTTY === true,
      translateTime: 'SYS:HH:MM:ss',
      ignore: 'pid,hostname,context,req,res,reqId,responseTime',
      messageFormat: '{if context}[{context}] {end}{msg}{if req} {req.method} {req.url} {res.statusCode} {responseTime}ms{end}',
      singleLine: true,
      sync: true,
    }),
  );
}

const INFO = 30;

type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/** Nest's `ExceptionHandler` and its kin call `error(message, stack, context)`: a stack where a value would be. */
const STACK = /\n\s*at /;

/**
 * Nest's logger (`app.useLogger(app.get(NestLogger))`) writing through the root pino logger: a
 * line is `{ context, ... }` plus the message, at the level Nest asked for (verbose is trace). Nest
 * passes the context last; an Error, or a message with a stack, becomes `err`.
 */
@Injectable()
export class NestLogger implements LoggerService {
  constructor(@Inject(ROOT_LOGGER) private readonly logger: PinoInstance) {}

  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  private write(level: Level, message: unknown, rest: unknown[]): void {
    if (!this.logger.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = {};
    const params = rest.length ? rest.slice(0, -1) : [];
    if (rest.length) fields.context = rest[rest.length - 1];
    if (message instanceof Error) {
      fields.err = message;
      this.logger[level](fields, message.message, ...params);
    } else if (message !== null && typeof message === 'object') {
      this.logger[level]({ ...fields, ...message }, ...(params as [string?]));
    } else if (level === 'error' && params.length === 1 && typeof params[0] === 'string' && STACK.test(params[0])) {
      const err = new Error(String(message));
      err.stack = params[0];
      this.logger[level]({ ...fields, err }, String(message));
    } else {
      this.logger[level](fields, String(message), ...params);
    }
  }
}

/**
 * pino JSON logs. Nest's own logger writes through the root logger (NestLogger); requests are
 * logged by a Fastify hook (`logRequests`), one line each with the request id, not by pino-http
 * middleware: no child logger, serialisation or async context per request when the line is below
 * the level.
 */
@Module({
  providers: [{ provide: ROOT_LOGGER, inject: [APP_CONFIG], useFactory: (config: AppConfig): PinoInstance => createRootLogger(config) }, NestLogger],
  exports: [ROOT_LOGGER, NestLogger],
})
export class LoggingModule {}

/**
 * One line per request when it completes: info for 2xx/3xx (not for /health or /metrics), warn for
 * 4xx, error for 5xx, with the request id, method, URL, status and time, and the code and message
 * of the error object it was answered with (`error`). The level is checked first, so a request
 * below it costs nothing more.
 */
export function logRequests(fastify: FastifyInstance, logger: PinoInstance): void {
  fastify.addHook('onResponse', async (request, reply) => {
    const status = reply.statusCode;
    const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
    if (!logger.isLevelEnabled(level)) return;
    if (level === 'info' && (request.url === '/health' || request.url === '/metrics')) return;
    logger[level](
      {
        reqId: request.id,
        req: { id: request.id, method: request.method, url: request.url, remoteAddress: request.ip, userAgent: request.headers['user-agent'] },
        res: { statusCode: status },
        responseTime: Math.round(reply.elapsedTime * 10) / 10,
        ...(status >= 400 ? { error: errorAnswered(request) } : {}),
      },
      'request completed',
    );
  });
}
