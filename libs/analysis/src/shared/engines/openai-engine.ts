import type OpenAI from 'openai';
import { type AnswerEngine, distinctCitations, type EngineAnswer, EngineError, type EngineUsage, type EngineQuestion } from './answer-engine';
import { marketCountry, marketInstruction } from './market-names';
import { count, deadlineSignal, isRecord, type LiveEngineOptions, malformed, statusFailure, transportFailure } from './engine-options';

/** The SDK, loaded when the first engine is made: processes that never ask this provider (the CLI, the API) do not pay its memory. */
let sdkLibrary: typeof import('openai') | undefined;
const sdk = () => (sdkLibrary ??= require('openai') as typeof import('openai')); // eslint-disable-line @typescript-eslint/no-require-imports

/** ChatGPT through the official SDK's Responses API with the hosted web search tool. */
export class OpenAiEngine implements AnswerEngine {
  readonly provider = 'chatgpt' as const;
  readonly source = 'live' as const;
  private readonly client: OpenAI;

  constructor(private readonly options: LiveEngineOptions) {
    // No SDK retries: the job queue retries, and it must see the Retry-After of every 429.
    this.client = new (sdk().default)({ apiKey: options.apiKey, baseURL: options.baseUrl ?? undefined, maxRetries: 0, timeout: options.timeoutMs });
  }

  async ask(question: EngineQuestion): Promise<EngineAnswer> {
    // The SDK's timeout stops at the headers; this deadline also bounds reading the body.
    const signal = deadlineSignal(this.options.timeoutMs, question.signal);
    let body: unknown;
    try {
      body = await this.client.responses.create(openAiRequest(this.options.model, question), { signal });
    } catch (error) {
      throw openAiFailure(error, signal.aborted, this.options.apiKey);
    }
    return mapOpenAiResponse(body, this.options.model);
  }
}

/**
 * The Responses API request: the query with the hosted web search tool. A market's country goes
 * in the tool's `user_location` (approximate, ISO 3166-1 alpha-2), its language in `instructions`
 * (the API has no language parameter).
 */
export function openAiRequest(model: string, question: Pick<EngineQuestion, 'query' | 'market'>) {
  const country = marketCountry(question.market);
  const instructions = marketInstruction(question.market, false);
  return {
    model,
    input: question.query,
    ...(instructions === null ? {} : { instructions }),
    tools: [country === null ? { type: 'web_search' as const } : { type: 'web_search' as const, user_location: { type: 'approximate' as const, country } }],
  };
}

export function openAiFailure(error: unknown, aborted: boolean, apiKey: string): EngineError {
  const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } = sdk();
  if (error instanceof APIError && typeof error.status === 'number') {
    return statusFailure('chatgpt', error.status, error.headers?.get('retry-after'), error.message, apiKey);
  }
  if (aborted || error instanceof APIUserAbortError || error instanceof APIConnectionTimeoutError) {
    return transportFailure('chatgpt', error, true, apiKey);
  }
  if (error instanceof APIConnectionError) return transportFailure('chatgpt', error.cause ?? error, false, apiKey);
  return transportFailure('chatgpt', error, false, apiKey);
}

/** A Responses API `Response` body as an answer: the message items' output text and their url_citation annotations. */
export function mapOpenAiResponse(body: unknown, requestedModel?: string): EngineAnswer {
  if (!isRecord(body) || !Array.isArray(body['output'])) throw malformed('chatgpt', 'no output array');
  const model = typeof body['model'] === 'string' ? body['model'] : requestedModel;
  if (model === undefined) throw malformed('chatgpt', 'no model');
  if (body['status'] === 'failed') {
    const error = isRecord(body['error']) && typeof body['error']['message'] === 'string' ? body['error']['message'] : 'no detail';
    throw new EngineError('unavailable', `chatgpt failed to answer: ${error}`);
  }
  if (body['status'] === 'incomplete') {
    const details = body['incomplete_details'];
    const reason = isRecord(details) && typeof details['reason'] === 'string' ? details['reason'] : 'unknown';
    throw new EngineError('refused', `chatgpt left its answer incomplete (${reason})`);
  }

  let text = '';
  let refusal: string | null = null;
  const cited: { url: unknown; title?: unknown }[] = [];
  for (const item of body['output']) {
    if (!isRecord(item)) throw malformed('chatgpt', 'an output item is not an object');
    // web_search_call, reasoning and other items carry no answer text.
    if (item['type'] !== 'message') continue;
    if (!Array.isArray(item['content'])) throw malformed('chatgpt', 'a message item has no content array');
    for (const part of item['content']) {
      if (!isRecord(part)) throw malformed('chatgpt', 'a content part is not an object');
      if (part['type'] === 'refusal') {
        refusal = typeof part['refusal'] === 'string' ? part['refusal'] : '';
        continue;
      }
      if (part['type'] !== 'output_text') continue;
      if (typeof part['text'] !== 'string') throw malformed('chatgpt', 'an output_text part has no text');
      text += part['text'];
      const annotations = part['annotations'] ?? [];
      if (!Array.isArray(annotations)) throw malformed('chatgpt', 'annotations is not an array');
      for (const annotation of annotations) {
        if (isRecord(annotation) && annotation['type'] === 'url_citation') cited.push({ url: annotation['url'], title: annotation['title'] });
      }
    }
  }
  if (refusal !== null) throw new EngineError('refused', `chatgpt refused: ${refusal.slice(0, 200)}`);
  if (text.trim() === '') throw new EngineError('refused', 'chatgpt answered no text');

  return { text, citations: distinctCitations(cited), model, source: 'live', usage: openAiUsage(body['usage']), raw: body };
}

/** Responses API `usage`: input_tokens counts the cached ones too (input_tokens_details.cached_tokens); output_tokens the reasoning ones. */
function openAiUsage(usage: unknown): EngineUsage | null {
  if (!isRecord(usage)) return null;
  const details = usage['input_tokens_details'];
  return { inputTokens: count(usage['input_tokens']), cachedInputTokens: isRecord(details) ? count(details['cached_tokens']) : null, outputTokens: count(usage['output_tokens']) };
}
