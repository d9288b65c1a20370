import { type AnswerEngine, distinctCitations, type EngineAnswer, EngineError, type EngineQuestion } from './answer-engine';
import { marketCountry, marketInstruction } from './market-names';
import { count, deadlineSignal, isRecord, type LiveEngineOptions, malformed, safeMessage, statusFailure, transportFailure } from './engine-options';

const DEFAULT_BASE_URL = 'https://api.perplexity.ai';
/** A chat completion is a few kB; anything near this is not one, and must not exhaust memory. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

/**
 * Perplexity through its documented HTTP API: its official SDK is ESM-only and cannot be
 * required from this CommonJS build. Sonar models search the web on every request.
 */
export class PerplexityEngine implements AnswerEngine {
  readonly provider = 'perplexity' as const;
  readonly source = 'live' as const;
  private readonly url: string;

  constructor(private readonly options: LiveEngineOptions) {
    this.url = `${(options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '')}/chat/completions`;
  }

  async ask(question: EngineQuestion): Promise<EngineAnswer> {
    const { apiKey, model, timeoutMs } = this.options;
    const signal = deadlineSignal(timeoutMs, question.signal);
    let status: number;
    let retryAfter: string | null;
    let text: string;
    try {
      const response = await fetch(this.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(perplexityRequest(model, question)),
        signal,
      });
      status = response.status;
      retryAfter = response.headers.get('retry-after');
      text = await readBounded(response, MAX_BODY_BYTES);
    } catch (error) {
      throw transportFailure('perplexity', error, signal.aborted, apiKey);
    }
    if (status < 200 || status > 299) throw statusFailure('perplexity', status, retryAfter, errorMessage(text), apiKey);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw malformed('perplexity', safeMessage(`not JSON: ${text.slice(0, 100)}`, apiKey));
    }
    return mapPerplexityResponse(body, model);
  }
}

/**
 * The chat completion request. A market's country goes in `web_search_options.user_location`
 * (ISO 3166-1 alpha-2), its language in `search_language_filter` (ISO 639-1: the tag's language
 * when it has a two-letter one) and, for the answer itself, in a system message.
 */
export function perplexityRequest(model: string, question: Pick<EngineQuestion, 'query' | 'market'>) {
  const country = marketCountry(question.market);
  const instruction = marketInstruction(question.market, false);
  const language = question.market?.language ? new Intl.Locale(question.market.language).language : null;
  return {
    model,
    messages: [...(instruction === null ? [] : [{ role: 'system', content: instruction }]), { role: 'user', content: question.query }],
    ...(country === null ? {} : { web_search_options: { user_location: { country } } }),
    ...(language !== null && language.length === 2 ? { search_language_filter: [language] } : {}),
  };
}

/** The body as text, refusing (malformed) one larger than `limit` bytes before it is all in memory. */
async function readBounded(response: Response, limit: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw malformed('perplexity', `a body of ${declared} bytes (limit ${limit})`);
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw malformed('perplexity', `a body over ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The message of an error body (`{"error": {"message"}}`, or `{"detail"}` from its gateway), else the text. */
function errorMessage(text: string): string {
  try {
    const body: unknown = JSON.parse(text);
    if (isRecord(body) && isRecord(body['error']) && typeof body['error']['message'] === 'string') return body['error']['message'];
    if (isRecord(body) && typeof body['detail'] === 'string') return body['detail'];
  } catch {
    // Gateways answer errors in HTML; the start of it is the best message there is.
  }
  return text.slice(0, 200);
}

/** A chat completion body as an answer: the first choice's content and the search results (or citation URLs). */
export function mapPerplexityResponse(body: unknown, requestedModel?: string): EngineAnswer {
  if (!isRecord(body) || !Array.isArray(body['choices'])) throw malformed('perplexity', 'no choices array');
  const model = typeof body['model'] === 'string' ? body['model'] : requestedModel;
  if (model === undefined) throw malformed('perplexity', 'no model');
  const choice: unknown = body['choices'][0];
  if (choice === undefined) throw new EngineError('refused', 'perplexity answered no choices');
  if (!isRecord(choice) || !isRecord(choice['message'])) throw malformed('perplexity', 'the first choice has no message');
  const text = stripReasoning(contentText(choice['message']['content']));
  if (text.trim() === '') throw new EngineError('refused', 'perplexity answered no text');

  const results = body['search_results'];
  const urls = body['citations'];
  let cited: { url: unknown; title?: unknown }[];
  if (Array.isArray(results) && results.length > 0) {
    cited = results.map((result: unknown) => (isRecord(result) ? { url: result['url'], title: result['title'] } : { url: null }));
  } else if (Array.isArray(urls)) {
    cited = urls.map((url: unknown) => ({ url }));
  } else {
    cited = [];
  }

  // Chat completions `usage`: no prompt caching (the per-request search fee is the price table's, not a token count).
  const usage = isRecord(body['usage']) ? { inputTokens: count(body['usage']['prompt_tokens']), cachedInputTokens: null, outputTokens: count(body['usage']['completion_tokens']) } : null;
  return { text, citations: distinctCitations(cited), model, source: 'live', usage, raw: body };
}

/** The content as a string, or the text of its parts when it comes as an array of chunks. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (!Array.isArray(content)) throw malformed('perplexity', 'message content is neither text nor parts');
  return content.map((part: unknown) => (isRecord(part) && part['type'] === 'text' && typeof part['text'] === 'string' ? part['text'] : '')).join('');
}

/** Reasoning models (sonar-reasoning*) put their reasoning in a leading <think> block, which is not the answer. */
function stripReasoning(text: string): string {
  return text.replace(/^\s*<think>[\s\S]*?<\/think>\s*/, '');
}
