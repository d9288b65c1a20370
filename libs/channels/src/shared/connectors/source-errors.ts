import { retryDelayMs } from '../../domain';

/** A failed request to a source API: whether trying again may help (quota, 5xx, network) and after how long the source asks. */
export class SourceError extends Error {
  override readonly name = 'SourceError';
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

export interface RetrySettings {
  attempts: number;
  backoffMs: number;
  /** Called before each wait (for the sync record's attempt count and tests). */
  onRetry?: (error: SourceError, retry: number, delayMs: number) => void;
  sleep?: (ms: number) => Promise<void>;
}

const MAX_DELAY_MS = 300_000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs one request, retrying retryable failures (quota first of all) with backoff, at most `attempts` times in all. */
export async function withRetries<T>(settings: RetrySettings, request: () => Promise<T>, classify: (error: unknown) => SourceError): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await request();
    } catch (raw) {
      const error = raw instanceof SourceError ? raw : classify(raw);
      if (!error.retryable || attempt >= settings.attempts) throw error;
      const delay = retryDelayMs(attempt, settings.backoffMs, MAX_DELAY_MS, error.retryAfterMs);
      settings.onRetry?.(error, attempt, delay);
      await (settings.sleep ?? sleep)(delay);
    }
  }
}

/** Seconds of a Retry-After header as milliseconds (null when absent or not a number of seconds). */
export function retryAfterMs(value: unknown): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  return typeof text === 'string' && /^[0-9]{1,6}$/.test(text.trim()) ? Number(text) * 1000 : null;
}

/** Cuts an error message from a source to a bounded line (it may quote the request, never credentials: they are not in it). */
export function shortMessage(text: unknown): string {
  return String(text ?? 'unknown error').replace(/\s+/g, ' ').slice(0, 500);
}

/** gRPC status codes google-gax reports; the retryable ones: RESOURCE_EXHAUSTED (quota), DEADLINE_EXCEEDED, ABORTED, INTERNAL, UNAVAILABLE. */
const RESOURCE_EXHAUSTED = 8;
const RETRYABLE_GRPC = new Set([RESOURCE_EXHAUSTED, 4, 10, 13, 14]);
/** Reasons of a 403 that mean a quota, not a refusal. */
const QUOTA_REASONS = /quota|rateLimit/i;
const NETWORK = /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|socket hang up|fetch failed|network|aborted/i;

interface GoogleErrorBody {
  error?: { code?: number; message?: string; status?: string; errors?: { reason?: string }[] };
}

/**
 * A failed call of an official Google client (a gaxios HTTP error, or a google-gax error with a
 * gRPC code) as a SourceError: quota (429, RESOURCE_EXHAUSTED, a quota 403), 5xx and network
 * failures are retryable, honouring Retry-After; other refusals are not.
 */
export function classifyGoogleError(api: string, error: unknown): SourceError {
  const e = error as { status?: number; code?: number | string; message?: string; response?: { status?: number; headers?: unknown; data?: unknown } };
  const status = typeof e.status === 'number' ? e.status : typeof e.response?.status === 'number' ? e.response.status : null;
  let body: GoogleErrorBody | null = null;
  for (const candidate of [e.response?.data, e.message]) {
    if (typeof candidate === 'object' && candidate !== null && 'error' in candidate) body = candidate as GoogleErrorBody;
    else if (typeof candidate === 'string' && candidate.trimStart().startsWith('{')) {
      try {
        body = JSON.parse(candidate) as GoogleErrorBody;
      } catch {
        /* not JSON */
      }
    }
    if (body) break;
  }
  const headers = e.response?.headers;
  const retryAfter = retryAfterMs(headers instanceof Headers ? headers.get('retry-after') : (headers as Record<string, unknown> | undefined)?.['retry-after']);
  const grpc = typeof e.code === 'number' && e.code < 20 && status === null ? e.code : null;
  const reasons = (body?.error?.errors ?? []).map((x) => x.reason ?? '').join(',');
  const quota = status === 429 || grpc === RESOURCE_EXHAUSTED || body?.error?.status === 'RESOURCE_EXHAUSTED' || (status === 403 && QUOTA_REASONS.test(reasons));
  const retryable = quota || (status !== null && status >= 500) || (grpc !== null && RETRYABLE_GRPC.has(grpc)) || (status === null && grpc === null && NETWORK.test(`${e.code} ${e.message}`));
  const message = `${api}${status ? ` ${status}` : ''}${quota ? ' quota exceeded' : ''}: ${shortMessage(body?.error?.message ?? e.message)}`;
  return new SourceError(message, retryable, retryAfter);
}
