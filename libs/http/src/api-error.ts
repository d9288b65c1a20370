import { HttpException } from '@nestjs/common';

/** RFC 6749 §5.2 error codes of the token and revocation endpoints, and §4.1.2.1 ones of the authorization endpoint. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'unsupported_response_type';

/** The contract's error codes (DESIGN §8) and the OAuth codes (RFC 6749). */
export type ErrorCode =
  | 'VALIDATION_ERROR'
  | 'INVALID_TRANSITION'
  | 'UNAUTHORIZED'
  | 'INSUFFICIENT_SCOPE'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'METHOD_NOT_ALLOWED'
  | 'RATE_LIMITED'
  | 'INTERNAL_ERROR'
  | 'SERVICE_UNAVAILABLE'
  | OAuthErrorCode;

export interface FieldProblem {
  field: string;
  message: string;
}

export interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

/** How many field problems one error lists (the rest are counted in `details.fieldCount`). */
export const MAX_LISTED_FIELDS = 50;

/** An error answered with the contract's error object. */
export class ApiError extends HttpException {
  constructor(
    status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    /** Extra response headers (e.g. Retry-After, WWW-Authenticate). */
    readonly headers: Record<string, string> = {},
  ) {
    super({ error: { code, message, ...(details ? { details } : {}) } } satisfies ErrorBody, status);
    this.message = message;
  }

  body(): ErrorBody {
    return { error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) } };
  }

  /** 400 listing the problems: at most MAX_LISTED_FIELDS of them, with `fieldCount` when there are more. */
  static validation(fields: FieldProblem[], message = 'The request is not valid'): ApiError {
    if (fields.length <= MAX_LISTED_FIELDS) return new ApiError(400, 'VALIDATION_ERROR', message, { fields });
    return new ApiError(400, 'VALIDATION_ERROR', message, { fields: fields.slice(0, MAX_LISTED_FIELDS), fieldCount: fields.length });
  }

  static notFound(what: string): ApiError {
    return new ApiError(404, 'NOT_FOUND', `${what} not found`);
  }

  static unauthorized(message = 'Authentication required: send an API key in X-API-Key or a bearer token'): ApiError {
    return new ApiError(401, 'UNAUTHORIZED', message, undefined, { 'WWW-Authenticate': 'Bearer realm="api", ApiKey header="X-API-Key"' });
  }

  static insufficientScope(required: string, granted: readonly string[]): ApiError {
    return new ApiError(403, 'INSUFFICIENT_SCOPE', `This operation needs the scope ${required}`, { required, granted });
  }
}
