import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type ErrorBody, type ErrorCode } from './api-error';

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  403: 'INSUFFICIENT_SCOPE',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

/** Fastify's own client errors (body parsing, limits), by code. */
const FASTIFY_ERRORS: Record<string, { status: number; code: ErrorCode; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'The request body is larger than 1 MiB' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send application/json' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'VALIDATION_ERROR', message: 'Content-Length does not match the body' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'VALIDATION_ERROR', message: 'The JSON body is empty' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'VALIDATION_ERROR', message: 'The body is not valid JSON' },
};

/** Maps any error to the contract's error object; a 500 never shows a stack or SQL. */
export function toErrorResponse(exception: unknown): { status: number; body: ErrorBody; headers: Record<string, string> } {
  if (exception instanceof ApiError) return { status: exception.getStatus(), body: exception.body(), headers: exception.headers };
  const fastifyCode = (exception as { code?: unknown }).code;
  if (typeof fastifyCode === 'string' && FASTIFY_ERRORS[fastifyCode]) {
    const e = FASTIFY_ERRORS[fastifyCode];
    return { status: e.status, body: { error: { code: e.code, message: e.message } }, headers: {} };
  }
  if (exception instanceof SyntaxError && (exception as { statusCode?: number }).statusCode === 400) {
    return { status: 400, body: { error: { code: 'VALIDATION_ERROR', message: 'The body is not valid JSON' } }, headers: {} };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const response = exception.getResponse();
    const message =
      typeof response === 'string' ? response : typeof (response as { message?: unknown }).message === 'string' ? (response as { message: string }).message : exception.message;
    const code = STATUS_CODES[status] ?? (status >= 500 ? 'INTERNAL_ERROR' : 'VALIDATION_ERROR');
    return { status, body: { error: { code, message: status === 404 ? 'Not found' : message } }, headers: {} };
  }
  const status = (exception as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, body: { error: { code: STATUS_CODES[status] ?? 'VALIDATION_ERROR', message: (exception as Error).message } }, headers: {} };
  }
  return { status: 500, body: { error: { code: 'INTERNAL_ERROR', message: 'An unexpected error occurred; it has been logged' } }, headers: {} };
}

/** The error object each request was answered with, by request (read by the request log line). */
const answered = new WeakMap<object, { code: string; message: string }>();

/** The code and message of the error object `request` was answered with by an error filter, if any. */
export function errorAnswered(request: object): { code: string; message: string } | undefined {
  return answered.get(request);
}

/**
 * Records the answer for the request's log line, and logs what is not a deliberate answer: an
 * exception that is not an ApiError and became a 5xx (a defect) is logged with its stack. An
 * ApiError of 5xx (503 while CHANNEL_CREDENTIALS_KEY is unset) is the service saying what it
 * cannot do: the request's one log line carries its code and message, and nothing else is logged.
 */
export function noteErrorAnswer(logger: Logger, exception: unknown, request: FastifyRequest, answer: { status: number; body: ErrorBody }): void {
  answered.set(request, { code: answer.body.error.code, message: answer.body.error.message });
  if (answer.status >= 500 && !(exception instanceof ApiError)) logger.error({ err: exception, reqId: request.id }, `unhandled error on ${request.method} ${request.url}`);
}

@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const { status, body, headers } = toErrorResponse(exception);
    noteErrorAnswer(this.logger, exception, request, { status, body });
    // JSON whatever the route had set for its success (`@Header('Content-Type', …)` on /metrics).
    void reply.status(status).headers(headers).type('application/json; charset=utf-8').send(body);
  }
}
