import { Catch, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, noteErrorAnswer, toErrorResponse, type OAuthErrorCode } from '@libs/http';

export type { OAuthErrorCode };

/** An OAuth error; rendered in the caller's dialect by OAuthErrorFilter. */
export class OAuthError extends ApiError {
  constructor(status: 400 | 401 | 403, code: OAuthErrorCode, description: string, headers: Record<string, string> = {}) {
    super(status, code, description, undefined, headers);
  }

  static invalidRequest(description: string): OAuthError {
    return new OAuthError(400, 'invalid_request', description);
  }

  static invalidGrant(description = 'The authorization code or refresh token is invalid, expired, revoked or was issued to another client'): OAuthError {
    return new OAuthError(400, 'invalid_grant', description);
  }

  static invalidScope(description: string): OAuthError {
    return new OAuthError(400, 'invalid_scope', description);
  }

  /** 401; with `WWW-Authenticate: Basic` when the client tried HTTP Basic (RFC 6749 §5.2). */
  static invalidClient(usedBasic: boolean, description = 'Client authentication failed'): OAuthError {
    return new OAuthError(401, 'invalid_client', description, usedBasic ? { 'WWW-Authenticate': 'Basic realm="oauth", charset="UTF-8"' } : {});
  }
}

/** Responses of the token and revocation endpoints are never cached (RFC 6749 §5.1). */
export const NO_STORE_HEADERS = { 'Cache-Control': 'no-store', Pragma: 'no-cache' } as const;

/** A form-encoded request (as OAuth libraries send) speaks RFC 6749; anything else speaks the contract. */
export function isFormRequest(headers: Record<string, string | string[] | undefined>): boolean {
  const type = headers['content-type'];
  return typeof type === 'string' && type.trim().toLowerCase().startsWith('application/x-www-form-urlencoded');
}

/**
 * The token and revocation endpoints' error filter. A JSON (or body-less) request gets the
 * contract's `{"error":{"code","message"}}` with the RFC code in `error.code`; a form-encoded
 * request gets RFC 6749's `{"error","error_description"}`. Validation failures are
 * `invalid_request`, never VALIDATION_ERROR.
 */
@Catch()
export class OAuthErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('OAuth');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const { status, body: raw, headers } = toErrorResponse(exception);
    const body = status === 400 && raw.error.code === 'VALIDATION_ERROR' ? { error: { code: 'invalid_request', message: raw.error.message } } : raw;
    noteErrorAnswer(this.logger, exception, request, { status, body });
    const all = { ...NO_STORE_HEADERS, ...headers, 'content-type': 'application/json; charset=utf-8' };
    if (isFormRequest(request.headers)) {
      const code = status >= 500 ? 'server_error' : body.error.code;
      void reply.status(status).headers(all).send({ error: code, error_description: body.error.message });
    } else {
      void reply.status(status).headers(all).send(body);
    }
  }
}
