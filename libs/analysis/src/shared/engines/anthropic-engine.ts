import type Anthropic from '@anthropic-ai/sdk';
import { type AnswerEngine, distinctCitations, type EngineAnswer, EngineError, type EngineUsage, type EngineQuestion } from './answer-engine';
import { count, deadlineSignal, sumCounts, isRecord, type LiveEngineOptions, malformed, statusFailure, transportFailure } from './engine-options';
import { marketCountry, marketInstruction } from './market-names';

const MAX_TOKENS = 2048;
const MAX_SEARCHES = 5;

/** The SDK, loaded when the first engine is made: processes that never ask this provider (the CLI, the API) do not pay its memory. */
let sdkLibrary: typeof import('@anthropic-ai/sdk') | undefined;
const sdk = () => (sdkLibrary ??= require('@anthropic-ai/sdk') as typeof import('@anthropic-ai/sdk')); // eslint-disable-line @typescript-eslint/no-require-imports

/** Claude through the official SDK's Messages API with the web search server tool. */
export class AnthropicEngine implements AnswerEngine {
  readonly provider = 'claude' as const;
  readonly source = 'live' as const;
  private readonly client: Anthropic;

  constructor(private readonly options: LiveEngineOptions) {
    // No SDK retries: the job queue retries, and it must see the Retry-After of every 429.
    this.client = new (sdk().default)({ apiKey: options.apiKey, baseURL: options.baseUrl ?? undefined, maxRetries: 0, timeout: options.timeoutMs });
  }

  async ask(question: EngineQuestion): Promise<EngineAnswer> {
    // The SDK's timeout stops at the headers; this deadline also bounds reading the body.
    const signal = deadlineSignal(this.options.timeoutMs, question.signal);
    let body: unknown;
    try {
      body = await this.client.messages.create(anthropicRequest(this.options.model, question), { signal });
    } catch (error) {
      throw anthropicFailure(error, signal.aborted, this.options.apiKey);
    }
    return mapAnthropicResponse(body, this.options.model);
  }
}

/**
 * The Messages API request: the query with the web search server tool. A market's country goes in
 * the tool's `user_location` (approximate, ISO 3166-1 alpha-2), its language in `system` (the API
 * has no language parameter).
 */
export function anthropicRequest(model: string, question: Pick<EngineQuestion, 'query' | 'market'>) {
  const country = marketCountry(question.market);
  const system = marketInstruction(question.market, false);
  return {
    model,
    max_tokens: MAX_TOKENS,
    ...(system === null ? {} : { system }),
    messages: [{ role: 'user' as const, content: question.query }],
    tools: [
      {
        type: 'web_search_20250305' as const,
        name: 'web_search' as const,
        max_uses: MAX_SEARCHES,
        ...(country === null ? {} : { user_location: { type: 'approximate' as const, country } }),
      },
    ],
  };
}

export function anthropicFailure(error: unknown, aborted: boolean, apiKey: string): EngineError {
  const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } = sdk();
  if (error instanceof APIError && typeof error.status === 'number') {
    return statusFailure('claude', error.status, error.headers?.get('retry-after'), error.message, apiKey);
  }
  if (aborted || error instanceof APIUserAbortError || error instanceof APIConnectionTimeoutError) {
    return transportFailure('claude', error, true, apiKey);
  }
  if (error instanceof APIConnectionError) return transportFailure('claude', error.cause ?? error, false, apiKey);
  return transportFailure('claude', error, false, apiKey);
}

/** A Messages API `Message` body as an answer: its text blocks and their web_search_result_location citations. */
export function mapAnthropicResponse(body: unknown, requestedModel?: string): EngineAnswer {
  if (!isRecord(body) || !Array.isArray(body['content'])) throw malformed('claude', 'no content array');
  const model = typeof body['model'] === 'string' ? body['model'] : requestedModel;
  if (model === undefined) throw malformed('claude', 'no model');
  if (body['stop_reason'] === 'refusal') throw new EngineError('refused', 'claude refused to answer (stop_reason refusal)');

  // With web search the answer comes as many text blocks, each carrying the citations of its own claim.
  let text = '';
  const cited: { url: unknown; title?: unknown }[] = [];
  for (const block of body['content']) {
    if (!isRecord(block)) throw malformed('claude', 'a content block is not an object');
    if (block['type'] !== 'text') continue;
    if (typeof block['text'] !== 'string') throw malformed('claude', 'a text block has no text');
    text += block['text'];
    const citations = block['citations'] ?? [];
    if (!Array.isArray(citations)) throw malformed('claude', 'citations is not an array');
    for (const citation of citations) {
      if (isRecord(citation) && citation['type'] === 'web_search_result_location') cited.push({ url: citation['url'], title: citation['title'] });
    }
  }
  if (text.trim() === '') throw new EngineError('refused', `claude answered no text (stop_reason ${String(body['stop_reason'])})`);

  return { text, citations: distinctCitations(cited), model, source: 'live', usage: anthropicUsage(body['usage']), raw: body };
}

/**
 * Messages API `usage`: input_tokens are only the tokens after the last cache breakpoint, so the
 * input is those plus the tokens written to and read from the cache; the reads are the cached input.
 */
function anthropicUsage(usage: unknown): EngineUsage | null {
  if (!isRecord(usage)) return null;
  return {
    inputTokens: sumCounts(usage['input_tokens'], usage['cache_creation_input_tokens'], usage['cache_read_input_tokens']),
    cachedInputTokens: count(usage['cache_read_input_tokens']),
    outputTokens: count(usage['output_tokens']),
  };
}
