import { randomUUID } from 'node:crypto';

/** One request to your site, in the ingest API's entry format. */
export interface Visit {
  timestamp: string;
  method: string;
  host: string;
  path: string;
  status: number;
  ip: string;
  userAgent: string;
  referer?: string | null;
  bytes?: number | null;
  durationMs?: number | null;
  headers?: Record<string, string>;
}

export interface AgentAnalyticsOptions {
  /** The ingest endpoint, e.g. `https://api.example.com/api/v1/agent-analytics/ingest`. */
  endpoint: string;
  /** An API key with the scope `write:agent-analytics`. */
  apiKey: string;
  /** Send a batch at least this often (ms, default 2000). */
  flushIntervalMs?: number;
  /** Send as soon as this many visits wait (default 500, at most 10,000). */
  maxBatch?: number;
  /** Visits kept while the service cannot be reached (default 10,000); beyond, the oldest are dropped and counted. */
  maxQueue?: number;
  /** Timeout of one send (ms, default 5000). */
  timeoutMs?: number;
  /** Which visits to report; default: likely bots, AI referrals and signed requests (see `isWorthReporting`). */
  filter?: (visit: Visit) => boolean;
  /** Told about every failed send (never thrown). */
  onError?: (error: Error) => void;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

/** Bots and fetchers by their user agent (a broad net: the service classifies precisely). */
const BOTLIKE = /bot|crawl|spider|slurp|fetch|agent|python|curl|wget|http|scrap|preview|GPT|Claude|Perplexity|anthropic|cohere|Bytespider|CCBot|Diffbot|meta-external|Amzn|Applebot|DuckAssist|MistralAI|YouBot|Timpibot|ImagesiftBot|omgili/i;
const AI_REFERRERS = /^https?:\/\/([a-z0-9-]+\.)*(chatgpt\.com|openai\.com|perplexity\.ai|perplexity\.com|claude\.ai|gemini\.google\.com|copilot\.microsoft\.com|meta\.ai|chat\.mistral\.ai|chat\.deepseek\.com|you\.com|phind\.com|grok\.com)(\/|$)/i;

/** The default filter: a bot-like user agent, an AI assistant's referer or utm_source, or a Web Bot Auth signature. */
export function isWorthReporting(v: Visit): boolean {
  return BOTLIKE.test(v.userAgent) || (v.referer != null && AI_REFERRERS.test(v.referer)) || /[?&]utm_source=(chatgpt\.com|perplexity|claude|gemini|copilot)/i.test(v.path) || v.headers?.['signature'] !== undefined;
}

export interface BatcherStats {
  sent: number;
  dropped: number;
  failedSends: number;
  queued: number;
}

/**
 * Collects visits and sends them in batches. `push` only appends to an array: the host's request
 * never waits for the service, and no error reaches it. A batch that cannot be sent is kept (with
 * its Idempotency-Key, so a retry counts once) and retried with a growing delay, up to `maxQueue`
 * visits; timers are unref'd, so they never keep a process alive.
 */
export class VisitBatcher {
  private queue: Visit[] = [];
  private retry: { key: string; visits: Visit[] } | null = null;
  private timer: NodeJS.Timeout | null = null;
  private sending: Promise<void> | null = null;
  private backoffMs = 0;
  private closed = false;
  readonly stats: BatcherStats = { sent: 0, dropped: 0, failedSends: 0, queued: 0 };
  private readonly o: Required<Omit<AgentAnalyticsOptions, 'onError' | 'fetch'>> & Pick<AgentAnalyticsOptions, 'onError'> & { fetch: typeof fetch };

  constructor(options: AgentAnalyticsOptions) {
    if (!options.endpoint || !/^https?:\/\//.test(options.endpoint)) throw new TypeError('agent-analytics: endpoint must be an http(s) URL');
    if (!options.apiKey) throw new TypeError('agent-analytics: apiKey is required');
    this.o = {
      flushIntervalMs: 2000,
      maxBatch: 500,
      maxQueue: 10_000,
      timeoutMs: 5000,
      filter: isWorthReporting,
      ...options,
      fetch: options.fetch ?? globalThis.fetch,
    };
    this.o.maxBatch = Math.min(Math.max(1, this.o.maxBatch), 10_000);
  }

  push(visit: Visit): void {
    if (this.closed) return;
    try {
      if (!this.o.filter(visit)) return;
    } catch {
      return;
    }
    this.queue.push(visit);
    if (this.queue.length + (this.retry?.visits.length ?? 0) > this.o.maxQueue) {
      this.queue.shift();
      this.stats.dropped++;
    }
    this.stats.queued = this.queue.length;
    if (this.queue.length >= this.o.maxBatch && this.backoffMs === 0) void this.flush();
    else this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.backoffMs || this.o.flushIntervalMs);
    this.timer.unref?.();
  }

  /** Sends what waits (one send at a time); resolves when done, never rejects. */
  flush(): Promise<void> {
    if (this.sending) return this.sending;
    this.sending = this.sendAll().finally(() => {
      this.sending = null;
      if (this.queue.length || this.retry) this.schedule();
    });
    return this.sending;
  }

  private async sendAll(): Promise<void> {
    while (this.retry || this.queue.length) {
      const batch = this.retry ?? { key: randomUUID(), visits: this.queue.splice(0, this.o.maxBatch) };
      this.stats.queued = this.queue.length;
      this.retry = null;
      try {
        if (await this.send(batch.key, batch.visits)) this.stats.sent += batch.visits.length;
        else this.stats.dropped += batch.visits.length;
        this.backoffMs = 0;
      } catch (error) {
        this.stats.failedSends++;
        this.retry = batch;
        this.backoffMs = Math.min(Math.max(this.backoffMs * 2, 1000), 60_000);
        try {
          this.o.onError?.(error as Error);
        } catch {
          /* the host's handler must not break us */
        }
        return;
      }
    }
  }

  /** True when the service took the batch, false when it refused it for good (a 4xx other than 408/429); throws to retry. */
  private async send(key: string, visits: Visit[]): Promise<boolean> {
    const res = await this.o.fetch(this.o.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': this.o.apiKey, 'idempotency-key': key },
      body: JSON.stringify(visits),
      signal: AbortSignal.timeout(this.o.timeoutMs),
    });
    // A 4xx other than 408/429 will not get better by retrying: drop the batch (counted).
    await res.arrayBuffer().catch(() => undefined);
    if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) {
      try {
        this.o.onError?.(new Error(`agent-analytics: the service refused a batch of ${visits.length} visits (${res.status})`));
      } catch {
        /* the host's handler must not break us */
      }
      return false;
    }
    if (!res.ok) throw new Error(`agent-analytics: the service answered ${res.status}`);
    return true;
  }

  /** Sends what waits (one last try) and stops. */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.backoffMs = 0;
    await this.flush();
    this.closed = true;
  }
}
