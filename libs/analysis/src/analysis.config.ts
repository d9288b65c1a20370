import { defineConfigSection, type ConfigOf, type ConfigReader } from '@libs/config';
import { completePriceEntry, DEFAULT_PRICES, PROVIDERS, priceEntryProblem, type PriceEntry, type Provider } from './domain';
import { JUDGE_PROVIDERS, type JudgeProvider } from './shared/judge/judge-wire';

/** The environment prefix of each provider: the names the providers' SDKs themselves read (DESIGN §13.1). */
export const PROVIDER_ENV: Readonly<Record<Provider, string>> = { chatgpt: 'OPENAI', claude: 'ANTHROPIC', gemini: 'GEMINI', perplexity: 'PERPLEXITY' };
const DEFAULT_MODELS: Readonly<Record<Provider, string>> = { chatgpt: 'gpt-4.1-mini', claude: 'claude-sonnet-4-6', gemini: 'gemini-2.5-flash', perplexity: 'sonar' };

export interface ProviderSettings {
  /** null: no key, the provider is served by the `recorded` source. Never logged or returned. */
  readonly apiKey: string | null;
  readonly model: string;
  /** The SDK's base URL (null: the SDK's default). */
  readonly baseUrl: string | null;
  /** Requests in flight to the provider, across every worker process. */
  readonly concurrency: number;
  /** Requests a minute to the provider, across every worker process. */
  readonly requestsPerMinute: number;
}

function providerSettings(r: ConfigReader, p: Provider): ProviderSettings {
  const env = PROVIDER_ENV[p];
  const baseUrl = r.optional(`${env}_BASE_URL`);
  if (baseUrl !== null && !/^https?:\/\/[^\s]+$/.test(baseUrl)) r.problem(`${env}_BASE_URL`, 'must be an http(s) URL');
  return {
    apiKey: r.optional(`${env}_API_KEY`),
    model: r.raw(`${env}_MODEL`),
    baseUrl,
    concurrency: r.int(`${env}_CONCURRENCY`, 1, 1000),
    requestsPerMinute: r.int(`${env}_REQUESTS_PER_MINUTE`, 1, 1_000_000),
  };
}

/**
 * The price table: the defaults, then PROVIDER_PRICES's entries (a JSON array of
 * {provider, model, since, inputPerMTok, outputPerMTok, cachedInputPerMTok?, requestUsd?}); an
 * entry with the same provider, model and since as a default replaces it, any other adds a line.
 */
function priceTable(r: ConfigReader): PriceEntry[] {
  const text = r.optional('PROVIDER_PRICES');
  if (text === null) return [...DEFAULT_PRICES];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    r.problem('PROVIDER_PRICES', 'must be a JSON array of price entries');
    return [...DEFAULT_PRICES];
  }
  if (!Array.isArray(parsed)) {
    r.problem('PROVIDER_PRICES', 'must be a JSON array of price entries');
    return [...DEFAULT_PRICES];
  }
  const added: PriceEntry[] = [];
  parsed.forEach((entry: unknown, k) => {
    const problem = priceEntryProblem(entry, PROVIDERS);
    if (problem) r.problem('PROVIDER_PRICES', `entry ${k}: ${problem}`);
    else added.push(completePriceEntry(entry as PriceEntry));
  });
  const same = (a: PriceEntry, b: PriceEntry) => a.provider === b.provider && a.model === b.model && a.since === b.since;
  return [...DEFAULT_PRICES.filter((d) => !added.some((a) => same(a, d))), ...added];
}

const JUDGE_DEFAULT_MODELS: Readonly<Record<JudgeProvider, string>> = { openai: 'gpt-4.1-mini', anthropic: 'claude-haiku-4-5' };
/** The answer provider whose key, base URL and queue (concurrency, requests a minute) a judge provider shares. */
export const JUDGE_QUEUE_PROVIDER: Readonly<Record<JudgeProvider, Provider>> = { openai: 'chatgpt', anthropic: 'claude' };

/** The sentiment judge of the deployment (DESIGN §17): null when SENTIMENT_JUDGE is unset or off, or no key is set for it. */
export interface JudgeSettings {
  readonly provider: JudgeProvider;
  readonly model: string;
  /** Never logged or returned. */
  readonly apiKey: string;
  readonly baseUrl: string | null;
  readonly timeoutMs: number;
}

function judgeSettings(r: ConfigReader, providers: Record<Provider, ProviderSettings>): JudgeSettings | null {
  const choice = r.oneOf('SENTIMENT_JUDGE', ['off', ...JUDGE_PROVIDERS] as const);
  const baseUrl = r.optional('SENTIMENT_JUDGE_BASE_URL');
  if (baseUrl !== null && !/^https?:\/\/[^\s]+$/.test(baseUrl)) r.problem('SENTIMENT_JUDGE_BASE_URL', 'must be an http(s) URL');
  const timeoutMs = r.int('SENTIMENT_JUDGE_TIMEOUT_MS', 100, 600_000);
  if (choice === 'off') return null;
  const shared = providers[JUDGE_QUEUE_PROVIDER[choice]];
  const apiKey = r.optional('SENTIMENT_JUDGE_API_KEY') ?? shared.apiKey;
  if (apiKey === null) return null;
  return { provider: choice, model: r.optional('SENTIMENT_JUDGE_MODEL') ?? JUDGE_DEFAULT_MODELS[choice], apiKey, baseUrl: baseUrl ?? shared.baseUrl, timeoutMs };
}

/** Analysis runs: the AI engines asked, their limits, and how answers are retried and scheduled. */
export const ANALYSIS_CONFIG = defineConfigSection(
  'analysis',
  [
    ...PROVIDERS.flatMap((p) => {
      const env = PROVIDER_ENV[p];
      return [
        { name: `${env}_API_KEY`, default: '(none)', description: `${p}: API key; without one, ${p} is answered by the recorded source` },
        { name: `${env}_MODEL`, default: DEFAULT_MODELS[p], description: `${p}: model asked` },
        { name: `${env}_BASE_URL`, default: '(none)', description: `${p}: the SDK's base URL (a local fake in tests)` },
        { name: `${env}_CONCURRENCY`, default: '5', description: `${p}: requests in flight, shared by all worker processes` },
        { name: `${env}_REQUESTS_PER_MINUTE`, default: '60', description: `${p}: requests a minute, shared by all worker processes` },
      ];
    }),
    { name: 'ANSWER_TIMEOUT_MS', default: '60000', description: 'Timeout of one question to a provider' },
    { name: 'ANSWER_ATTEMPTS', default: '5', description: 'Attempts at one question (429, 5xx and timeouts are retried)' },
    { name: 'ANSWER_BACKOFF_MS', default: '2000', description: 'First retry delay, doubled each attempt (a longer Retry-After wins)' },
    { name: 'SENTIMENT_JUDGE', default: 'off', description: 'Sentiment judge provider (openai or anthropic); organisations enable it with `cli judge set`' },
    { name: 'SENTIMENT_JUDGE_MODEL', default: '(gpt-4.1-mini; claude-haiku-4-5)', description: 'Model of the sentiment judge' },
    { name: 'SENTIMENT_JUDGE_API_KEY', default: '(OPENAI_API_KEY or ANTHROPIC_API_KEY)', description: "Key of the sentiment judge; without one (or the provider's), no answer is judged" },
    { name: 'SENTIMENT_JUDGE_BASE_URL', default: '(OPENAI_BASE_URL or ANTHROPIC_BASE_URL)', description: "The judge SDK's base URL (a local fake in tests)" },
    { name: 'SENTIMENT_JUDGE_TIMEOUT_MS', default: '30000', description: 'Timeout of one judge call' },
    { name: 'ANALYSIS_SCHEDULER_POLL_MS', default: '60000', description: 'How often the scheduler looks for brands whose prompts are due' },
    {
      name: 'PROVIDER_PRICES',
      default: '(the list prices in libs/analysis/src/domain/pricing.ts)',
      description: 'Price lines added to (or replacing) the defaults: a JSON array of {provider, model, since (YYYY-MM-DD), inputPerMTok, outputPerMTok, cachedInputPerMTok?, requestUsd?} in USD',
    },
  ],
  (r) => {
    const providers = Object.fromEntries(PROVIDERS.map((p) => [p, providerSettings(r, p)])) as Record<Provider, ProviderSettings>;
    return {
    providers,
    judge: judgeSettings(r, providers),
    timeoutMs: r.int('ANSWER_TIMEOUT_MS', 100, 600_000),
    attempts: r.int('ANSWER_ATTEMPTS', 1, 50),
    backoffMs: r.int('ANSWER_BACKOFF_MS', 1, 3_600_000),
    schedulerPollMs: r.int('ANALYSIS_SCHEDULER_POLL_MS', 50, 86_400_000),
    prices: priceTable(r),
    };
  },
);
export type AnalysisConfig = ConfigOf<typeof ANALYSIS_CONFIG>;
