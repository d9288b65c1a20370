import type { Provider } from '../../domain';
import { EngineError, retryAfterMs } from './answer-engine';

/** What every live adapter is built from. */
export interface LiveEngineOptions {
  readonly apiKey: string;
  readonly model: string;
  /** null: the SDK's (or documented API's) default endpoint. */
  readonly baseUrl: string | null;
  readonly timeoutMs: number;
}

/*
 * Plumbing shared by the four live adapters: turning a provider's failure into an EngineError
 * without ever leaking the key, and reading untyped response bodies.
 */

const MAX_MESSAGE_LENGTH = 500;

/** A provider's message made safe to log: the key removed (some 401 bodies echo it) and bounded. */
export function safeMessage(text: string, apiKey: string): string {
  const redacted = apiKey.length >= 4 ? text.split(apiKey).join('[redacted]') : text;
  return redacted.length > MAX_MESSAGE_LENGTH ? `${redacted.slice(0, MAX_MESSAGE_LENGTH)}…` : redacted;
}

/** The one deadline of a call: the adapter's timeout or the caller's signal, whichever fires first. */
export function deadlineSignal(timeoutMs: number, signal: AbortSignal | undefined): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal === undefined ? timeout : AbortSignal.any([timeout, signal]);
}

/** The EngineError for an HTTP error status the provider answered with. */
export function statusFailure(
  provider: Provider,
  status: number,
  retryAfterHeader: string | null | undefined,
  providerMessage: string,
  apiKey: string,
  retryAfterFallbackMs: number | null = null,
): EngineError {
  const message = safeMessage(`${provider} answered HTTP ${status}: ${providerMessage}`, apiKey);
  if (status === 429) return new EngineError('rate_limited', message, retryAfterMs(retryAfterHeader) ?? retryAfterFallbackMs, status);
  if (status >= 500) return new EngineError('unavailable', message, retryAfterMs(retryAfterHeader), status);
  if (status === 408) return new EngineError('timeout', message, null, status);
  if (status >= 400) return new EngineError('rejected', message, null, status);
  return new EngineError('unavailable', message, null, status);
}

const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * The EngineError for a failure without an HTTP status (abort, timeout, connection, unparsable body).
 * Errors from Node's fetch come from another realm under Jest, so they are recognised by name and
 * code, not by `instanceof`. `aborted` is the call's deadline signal state: once it fired, whatever
 * the SDK threw is a timeout.
 */
export function transportFailure(provider: Provider, error: unknown, aborted: boolean, apiKey: string): EngineError {
  if (error instanceof EngineError) return error;
  const detail = safeMessage(describe(error), apiKey);
  if (aborted) return new EngineError('timeout', `${provider} did not answer in time (${detail})`);
  for (let cause: unknown = error, depth = 0; isRecord(cause) && depth < 6; cause = cause['cause'], depth++) {
    const name = typeof cause['name'] === 'string' ? cause['name'] : '';
    const code = typeof cause['code'] === 'string' ? cause['code'] : '';
    if (name === 'AbortError' || name === 'TimeoutError' || TIMEOUT_CODES.has(code)) {
      return new EngineError('timeout', `${provider} did not answer in time (${detail})`);
    }
    if (name === 'SyntaxError') return new EngineError('malformed', `${provider} sent a body that is not JSON (${detail})`);
  }
  return new EngineError('unavailable', `${provider} could not be reached (${detail})`);
}

function describe(error: unknown): string {
  const parts: string[] = [];
  for (let cause: unknown = error, depth = 0; cause !== undefined && cause !== null && depth < 4; depth++) {
    if (isRecord(cause)) {
      const text = [cause['name'], cause['code'], cause['message']].filter((v) => typeof v === 'string' && v !== '').join(' ');
      if (text !== '') parts.push(text);
      cause = cause['cause'];
    } else {
      parts.push(String(cause));
      break;
    }
  }
  return parts.join(' <- ') || 'unknown error';
}

/** A `malformed` EngineError: the provider answered 2xx with something that is not its format. */
export function malformed(provider: Provider, what: string): EngineError {
  return new EngineError('malformed', `${provider} answered with an unexpected body: ${what}`);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A token count when it is one, else null (usage fields are optional everywhere). */
export function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

/** The sum of the counts present, or null when none is (a provider splitting one figure over several fields). */
export function sumCounts(...values: unknown[]): number | null {
  const present = values.map(count).filter((v): v is number => v !== null);
  return present.length ? present.reduce((a, b) => a + b, 0) : null;
}
