import type { Provider } from './providers';

/*
 * What answers cost (DESIGN §17): a price table per provider and model, each entry in force from
 * a day on, and the cost of recorded token counts under it. Pure: the table comes from
 * configuration (PROVIDER_PRICES adds to or overrides the defaults below).
 */

/** Token counts of one provider reply (or a sum of them); cached input is part of input. */
export interface TokenUsage {
  readonly inputTokens: number;
  readonly cachedInputTokens: number;
  readonly outputTokens: number;
}

/** One line of the price table: USD per million tokens, and per request (a search fee), from `since` (a UTC day) on. */
export interface PriceEntry {
  readonly provider: Provider;
  /** The model as configured or as the provider names it; a dated snapshot (`gpt-4.1-mini-2025-04-14`) takes its base model's line. */
  readonly model: string;
  readonly since: string;
  readonly inputPerMTok: number;
  readonly cachedInputPerMTok: number;
  readonly outputPerMTok: number;
  readonly requestUsd: number;
}

/** The day the default prices were read from the providers' price pages (docs/decisions.md, issue 32 part 2). */
export const DEFAULT_PRICES_READ_ON = '2026-11-27';

/** List prices of the default models (and their larger siblings) as read on DEFAULT_PRICES_READ_ON. */
export const DEFAULT_PRICES: readonly PriceEntry[] = [
  // OpenAI: tokens, plus the web search tool call ($10 per 1,000 calls).
  { provider: 'chatgpt', model: 'gpt-4.1-mini', since: '2025-04-14', inputPerMTok: 0.4, cachedInputPerMTok: 0.1, outputPerMTok: 1.6, requestUsd: 0.01 },
  { provider: 'chatgpt', model: 'gpt-4.1-nano', since: '2025-04-14', inputPerMTok: 0.1, cachedInputPerMTok: 0.025, outputPerMTok: 0.4, requestUsd: 0.01 },
  { provider: 'chatgpt', model: 'gpt-4.1', since: '2025-04-14', inputPerMTok: 2, cachedInputPerMTok: 0.5, outputPerMTok: 8, requestUsd: 0.01 },
  { provider: 'chatgpt', model: 'gpt-5', since: '2025-08-07', inputPerMTok: 1.25, cachedInputPerMTok: 0.125, outputPerMTok: 10, requestUsd: 0.01 },
  { provider: 'chatgpt', model: 'gpt-5-mini', since: '2025-08-07', inputPerMTok: 0.25, cachedInputPerMTok: 0.025, outputPerMTok: 2, requestUsd: 0.01 },
  // Anthropic: tokens (cache reads at a tenth), plus web search ($10 per 1,000 searches; one a question assumed).
  { provider: 'claude', model: 'claude-sonnet-4', since: '2025-05-22', inputPerMTok: 3, cachedInputPerMTok: 0.3, outputPerMTok: 15, requestUsd: 0.01 },
  { provider: 'claude', model: 'claude-haiku-4', since: '2025-10-15', inputPerMTok: 1, cachedInputPerMTok: 0.1, outputPerMTok: 5, requestUsd: 0.01 },
  // Google: tokens, plus grounding with Google Search ($35 per 1,000 grounded prompts beyond the free daily allowance).
  { provider: 'gemini', model: 'gemini-2.5-flash', since: '2025-06-17', inputPerMTok: 0.3, cachedInputPerMTok: 0.03, outputPerMTok: 2.5, requestUsd: 0.035 },
  { provider: 'gemini', model: 'gemini-2.5-flash-lite', since: '2025-07-22', inputPerMTok: 0.1, cachedInputPerMTok: 0.01, outputPerMTok: 0.4, requestUsd: 0.035 },
  { provider: 'gemini', model: 'gemini-2.5-pro', since: '2025-06-17', inputPerMTok: 1.25, cachedInputPerMTok: 0.125, outputPerMTok: 10, requestUsd: 0.035 },
  // Perplexity: tokens, plus the request fee at the low search context size ($5 per 1,000 requests).
  { provider: 'perplexity', model: 'sonar', since: '2025-04-01', inputPerMTok: 1, cachedInputPerMTok: 1, outputPerMTok: 1, requestUsd: 0.005 },
  { provider: 'perplexity', model: 'sonar-pro', since: '2025-04-01', inputPerMTok: 3, cachedInputPerMTok: 3, outputPerMTok: 15, requestUsd: 0.006 },
];

/** What a price entry must look like (PROVIDER_PRICES): the problem, or null. */
export function priceEntryProblem(value: unknown, providers: readonly string[]): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'each entry must be an object';
  const e = value as Record<string, unknown>;
  const known = ['provider', 'model', 'since', 'inputPerMTok', 'cachedInputPerMTok', 'outputPerMTok', 'requestUsd'];
  const unknown = Object.keys(e).filter((k) => !known.includes(k));
  if (unknown.length) return `unknown field(s) ${unknown.join(', ')}`;
  if (typeof e['provider'] !== 'string' || !providers.includes(e['provider'])) return `provider must be one of ${providers.join(', ')}`;
  if (typeof e['model'] !== 'string' || e['model'].trim() === '') return 'model must be a non-empty string';
  if (typeof e['since'] !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(e['since'])) return 'since must be a date YYYY-MM-DD';
  for (const k of ['inputPerMTok', 'outputPerMTok']) if (!nonNegative(e[k])) return `${k} must be a number >= 0`;
  for (const k of ['cachedInputPerMTok', 'requestUsd']) if (e[k] !== undefined && !nonNegative(e[k])) return `${k} must be a number >= 0`;
  return null;
}

const nonNegative = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** A configured entry with its optional fields filled (cached input at the input price, no request fee). */
export function completePriceEntry(e: Omit<PriceEntry, 'cachedInputPerMTok' | 'requestUsd'> & Partial<PriceEntry>): PriceEntry {
  return { ...e, cachedInputPerMTok: e.cachedInputPerMTok ?? e.inputPerMTok, requestUsd: e.requestUsd ?? 0 };
}

/**
 * The price in force for a reply of `model` by `provider` on `day` (YYYY-MM-DD): among the lines
 * whose model is the reply's model or a prefix of it (a dated snapshot, `-latest`), the longest
 * model, then the latest `since` not after the day. null: the model has no price.
 */
export function priceOn(table: readonly PriceEntry[], provider: string, model: string, day: string): PriceEntry | null {
  let best: PriceEntry | null = null;
  for (const e of table) {
    if (e.provider !== provider || e.since > day) continue;
    if (model !== e.model && !model.startsWith(`${e.model}-`)) continue;
    if (!best || e.model.length > best.model.length || (e.model.length === best.model.length && e.since > best.since)) best = e;
  }
  return best;
}

/** USD of `requests` replies with these summed tokens under one price (cached input at its own price). */
export function costUsd(usage: TokenUsage, requests: number, price: PriceEntry): number {
  const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
  const fresh = usage.inputTokens - cached;
  return (fresh * price.inputPerMTok + cached * price.cachedInputPerMTok + usage.outputTokens * price.outputPerMTok) / 1e6 + requests * price.requestUsd;
}

/** A cost figure as the API reports it: tokens and USD (rounded to a millionth of a dollar). */
export interface CostFigure {
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  usd: number;
  /** Replies whose model has no price in the table (their tokens count, their USD is 0). */
  unpricedAnswers: number;
}

/** One group of replies of one provider and model on one day (what the cost reads sum up). */
export interface UsageGroup extends TokenUsage {
  readonly provider: string;
  readonly model: string;
  readonly day: string;
  readonly requests: number;
  /** Replies billed the entry's request fee (the search tool's): all of them unless said (judge calls search nothing: 0). */
  readonly feeRequests?: number;
}

export const emptyCost = (): CostFigure => ({ inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, usd: 0, unpricedAnswers: 0 });

/** Adds a group to a figure under the price of its day. */
export function addGroup(figure: CostFigure, group: UsageGroup, table: readonly PriceEntry[]): CostFigure {
  const price = priceOn(table, group.provider, group.model, group.day);
  figure.inputTokens += group.inputTokens;
  figure.cachedInputTokens += group.cachedInputTokens;
  figure.outputTokens += group.outputTokens;
  if (price) figure.usd += costUsd(group, group.feeRequests ?? group.requests, price);
  else figure.unpricedAnswers += group.requests;
  return figure;
}

export const roundUsd = (usd: number): number => Math.round(usd * 1e6) / 1e6;

/**
 * Tokens a question is expected to take before an organisation has answers of its own to average
 * (the estimate of a dry run and of a budget check): the search tools put their results in the
 * input (OpenAI's mini models bill a fixed 8,000 input tokens a search; Claude reads several
 * pages), Gemini's and Perplexity's searches are billed per request instead.
 */
/** Tokens a judge call is expected to take before the organisation has judge calls of its own to average (instructions, answer, entity names in; a short JSON out). */
export const TYPICAL_JUDGE_USAGE: TokenUsage = { inputTokens: 1500, cachedInputTokens: 0, outputTokens: 200 };

export const TYPICAL_USAGE: Readonly<Record<Provider, TokenUsage>> = {
  chatgpt: { inputTokens: 8000, cachedInputTokens: 0, outputTokens: 600 },
  claude: { inputTokens: 12000, cachedInputTokens: 0, outputTokens: 700 },
  gemini: { inputTokens: 400, cachedInputTokens: 0, outputTokens: 700 },
  perplexity: { inputTokens: 100, cachedInputTokens: 0, outputTokens: 500 },
};
