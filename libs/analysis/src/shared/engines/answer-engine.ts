import type { Market, Provider } from '../../domain';

/** One source the engine cited, in the engine's order. */
export interface EngineCitation {
  readonly url: string;
  readonly title: string | null;
}

/** What an engine answered to one query. */
export interface EngineAnswer {
  /** The answer text (markdown) as the engine returned it. */
  readonly text: string;
  /** The sources the engine cited, in its order, each URL once. */
  readonly citations: readonly EngineCitation[];
  /** The model that answered, as the provider names it. */
  readonly model: string;
  /** `live`: a provider's API answered; `recorded`: the deterministic generator (no key configured). */
  readonly source: 'live' | 'recorded';
  /** Token counts as the provider reports them (input includes cached input), null when it reports none. */
  readonly usage: EngineUsage | null;
  /** The provider's response body, kept (bounded by the caller) so extraction can be redone. */
  readonly raw: unknown;
}

/** A reply's tokens, each null when the provider leaves it out: input (all of it, cached included), cached input, output (reasoning included). */
export interface EngineUsage {
  readonly inputTokens: number | null;
  readonly cachedInputTokens: number | null;
  readonly outputTokens: number | null;
}

/** What an adapter is asked: the query, and what the recorded source needs to make a realistic answer. */
export interface EngineQuestion {
  readonly query: string;
  /** The market to answer for (DESIGN §17): each adapter passes it the way its API takes it; absent or null parts: the provider's default. */
  readonly market?: Market;
  /** When it is asked (the recorded source's answers drift with it). */
  readonly askedAt: Date;
  /** The brand and competitors the recorded source writes about (live engines ignore it). */
  readonly entities: readonly { readonly kind: 'brand' | 'competitor'; readonly name: string; readonly domains: readonly string[] }[];
  /** Aborts the request (the job's timeout). */
  readonly signal?: AbortSignal;
}

/** Why an engine gave no answer, and whether asking again later may help. */
export type EngineFailureKind =
  | 'rate_limited' // 429: retry, after Retry-After when given
  | 'unavailable' // 5xx or the connection failed: retry with backoff
  | 'timeout' // no answer in time: retry with backoff
  | 'rejected' // 4xx other than 429 (bad key, bad request): fail at once
  | 'malformed' // a body that is not the provider's format: fail at once
  | 'refused'; // the engine declined or answered nothing: fail at once

export class EngineError extends Error {
  override readonly name = 'EngineError';
  constructor(
    readonly kind: EngineFailureKind,
    message: string,
    /** Milliseconds the provider asked us to wait (Retry-After), when it did. */
    readonly retryAfterMs: number | null = null,
    readonly status: number | null = null,
  ) {
    super(message);
  }

  get retryable(): boolean {
    return this.kind === 'rate_limited' || this.kind === 'unavailable' || this.kind === 'timeout';
  }
}

/** One provider's adapter: the official SDK (or documented HTTP API) behind one port. */
export interface AnswerEngine {
  readonly provider: Provider;
  readonly source: 'live' | 'recorded';
  /** Answers or throws EngineError (never another error for a provider's fault). */
  ask(question: EngineQuestion): Promise<EngineAnswer>;
}

/** Milliseconds from a Retry-After header value (seconds or an HTTP date), or null. */
export function retryAfterMs(value: string | null | undefined, now: number = Date.now()): number | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  const text = value.trim();
  if (/^[0-9]{1,9}(\.[0-9]+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Citations in order with each URL once (the first title wins), dropping anything that is not an http(s) URL. */
export function distinctCitations(items: readonly { url: unknown; title?: unknown }[]): EngineCitation[] {
  const seen = new Set<string>();
  const out: EngineCitation[] = [];
  for (const item of items) {
    if (typeof item.url !== 'string' || !/^https?:\/\//i.test(item.url) || item.url.length > 4096) continue;
    if (seen.has(item.url)) continue;
    seen.add(item.url);
    out.push({ url: item.url, title: typeof item.title === 'string' && item.title.trim() !== '' ? item.title : null });
  }
  return out;
}
