import type { GoogleGenAI } from '@google/genai';
import { type AnswerEngine, distinctCitations, type EngineAnswer, EngineError, type EngineUsage, type EngineQuestion } from './answer-engine';
import { count, deadlineSignal, sumCounts, isRecord, type LiveEngineOptions, malformed, statusFailure, transportFailure } from './engine-options';
import { marketInstruction } from './market-names';

/** Finish reasons meaning the model withheld its answer (a STOP or MAX_TOKENS answer is kept). */
const REFUSAL_FINISH_REASONS = new Set(['SAFETY', 'RECITATION', 'LANGUAGE', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY']);

const REDIRECT_HOST = 'vertexaisearch.cloud.google.com';
const REDIRECT_PATH = '/grounding-api-redirect/';
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/i;

/** The SDK, loaded when the first engine is made: processes that never ask this provider (the CLI, the API) do not pay its memory. */
let sdkLibrary: typeof import('@google/genai') | undefined;
const sdk = () => (sdkLibrary ??= require('@google/genai') as typeof import('@google/genai')); // eslint-disable-line @typescript-eslint/no-require-imports

/** Gemini through the official SDK's generateContent with Google Search grounding. */
export class GeminiEngine implements AnswerEngine {
  readonly provider = 'gemini' as const;
  readonly source = 'live' as const;
  private readonly client: GoogleGenAI;

  constructor(private readonly options: LiveEngineOptions) {
    // vertexai: false so a GOOGLE_GENAI_USE_VERTEXAI in the environment cannot reroute the key.
    // The SDK retries only when httpOptions.retryOptions is set: left unset, the job queue retries.
    // fetch is given explicitly: left to itself the SDK dispatches through Undici's dispatcher found
    // on globalThis, which a sandboxed realm (Jest's vm context) lacks, so every request failed there.
    // Our deadline, not the SDK's disabled Undici timeouts, bounds the call either way.
    this.client = new (sdk().GoogleGenAI)({
      apiKey: options.apiKey,
      vertexai: false,
      httpOptions: {
        ...(options.baseUrl === null ? {} : { baseUrl: options.baseUrl }),
        timeout: options.timeoutMs,
        fetch: (input, init) => fetch(input, init),
      },
    });
  }

  async ask(question: EngineQuestion): Promise<EngineAnswer> {
    // The SDK's timeout is per attempt and armed around the fetch; this deadline bounds the whole call.
    const signal = deadlineSignal(this.options.timeoutMs, question.signal);
    let body: unknown;
    try {
      const instruction = marketInstruction(question.market, true);
      body = await this.client.models.generateContent({
        model: this.options.model,
        contents: question.query,
        // Google Search grounding takes no location or language: the market is said in the system instruction.
        config: { tools: [{ googleSearch: {} }], ...(instruction === null ? {} : { systemInstruction: instruction }), abortSignal: signal },
      });
    } catch (error) {
      throw geminiFailure(error, signal.aborted, this.options.apiKey);
    }
    return mapGeminiResponse(withoutHttpResponse(body), this.options.model);
  }
}

/** The SDK adds the response's Headers as `sdkHttpResponse`; raw keeps only the body. */
function withoutHttpResponse(body: unknown): unknown {
  if (!isRecord(body)) return body;
  const { sdkHttpResponse: _headers, ...rest } = body;
  return rest;
}

/**
 * The SDK's ApiError carries only the status and, as its message, the JSON error body: the
 * response headers are not reachable, so a 429's delay comes from the body's google.rpc.RetryInfo.
 */
function geminiFailure(error: unknown, aborted: boolean, apiKey: string): EngineError {
  if (error instanceof sdk().ApiError && typeof error.status === 'number') {
    const { message, retryDelayMs } = parseGoogleError(error.message);
    return statusFailure('gemini', error.status, null, message, apiKey, retryDelayMs);
  }
  return transportFailure('gemini', error, aborted, apiKey);
}

/** The message and RetryInfo delay of a google.rpc.Status error body (`{"error": {...}}`), as far as present. */
export function parseGoogleError(text: string): { message: string; retryDelayMs: number | null } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { message: text, retryDelayMs: null };
  }
  const error = isRecord(parsed) && isRecord(parsed['error']) ? parsed['error'] : null;
  if (error === null) return { message: text, retryDelayMs: null };
  const message = [error['status'], error['message']].filter((v) => typeof v === 'string' && v !== '').join(': ') || text;
  let retryDelayMs: number | null = null;
  for (const detail of Array.isArray(error['details']) ? error['details'] : []) {
    if (isRecord(detail) && typeof detail['@type'] === 'string' && detail['@type'].endsWith('google.rpc.RetryInfo')) {
      retryDelayMs = durationMs(detail['retryDelay']);
    }
  }
  return { message, retryDelayMs };
}

/** A protobuf Duration in its JSON form ("2s", "1.5s") or as {seconds, nanos}. */
function durationMs(value: unknown): number | null {
  if (typeof value === 'string') {
    const match = /^([0-9]{1,9}(?:\.[0-9]+)?)s$/.exec(value.trim());
    return match === null ? null : Math.round(Number(match[1]) * 1000);
  }
  if (isRecord(value)) {
    const seconds = Number(value['seconds'] ?? 0);
    const nanos = Number(value['nanos'] ?? 0);
    return Number.isFinite(seconds) && Number.isFinite(nanos) ? Math.round(seconds * 1000 + nanos / 1e6) : null;
  }
  return null;
}

/** A `GenerateContentResponse` body as an answer: the first candidate's text and its grounding chunks. */
export function mapGeminiResponse(body: unknown, requestedModel?: string): EngineAnswer {
  if (!isRecord(body)) throw malformed('gemini', 'not an object');
  const model = typeof body['modelVersion'] === 'string' ? body['modelVersion'] : requestedModel;
  if (model === undefined) throw malformed('gemini', 'no modelVersion');
  const candidates = body['candidates'];
  if (candidates !== undefined && !Array.isArray(candidates)) throw malformed('gemini', 'candidates is not an array');
  if (candidates === undefined || candidates.length === 0) {
    const feedback = body['promptFeedback'];
    if (isRecord(feedback) && typeof feedback['blockReason'] === 'string') {
      throw new EngineError('refused', `gemini blocked the prompt (${feedback['blockReason']})`);
    }
    // A body with none of a GenerateContentResponse's fields is not one.
    if (feedback === undefined && body['usageMetadata'] === undefined && body['modelVersion'] === undefined) {
      throw malformed('gemini', 'no candidates, promptFeedback or usageMetadata');
    }
    throw new EngineError('refused', 'gemini answered no candidates');
  }

  const candidate: unknown = candidates[0];
  if (!isRecord(candidate)) throw malformed('gemini', 'the first candidate is not an object');
  const finishReason = candidate['finishReason'];
  if (typeof finishReason === 'string' && REFUSAL_FINISH_REASONS.has(finishReason)) {
    throw new EngineError('refused', `gemini withheld its answer (finishReason ${finishReason})`);
  }
  let text = '';
  const content = candidate['content'];
  if (content !== undefined) {
    if (!isRecord(content)) throw malformed('gemini', 'content is not an object');
    const parts = content['parts'] ?? [];
    if (!Array.isArray(parts)) throw malformed('gemini', 'parts is not an array');
    for (const part of parts) {
      if (!isRecord(part)) throw malformed('gemini', 'a part is not an object');
      // Thought summaries are the model's reasoning, not its answer.
      if (typeof part['text'] === 'string' && part['thought'] !== true) text += part['text'];
    }
  }
  if (text.trim() === '') throw new EngineError('refused', `gemini answered no text (finishReason ${String(finishReason)})`);

  const grounding = candidate['groundingMetadata'];
  const chunks = isRecord(grounding) ? (grounding['groundingChunks'] ?? []) : [];
  if (!Array.isArray(chunks)) throw malformed('gemini', 'groundingChunks is not an array');
  const cited = chunks.flatMap((chunk: unknown) => (isRecord(chunk) && isRecord(chunk['web']) ? [groundingCitation(chunk['web'])] : []));

  return { text, citations: distinctCitations(cited), model, source: 'live', usage: geminiUsage(body['usageMetadata']), raw: body };
}

/**
 * `usageMetadata`: the prompt (cached content included, cachedContentTokenCount) and the search
 * tool's prompt are billed as input; the candidates and the thoughts as output.
 */
function geminiUsage(meta: unknown): EngineUsage | null {
  if (!isRecord(meta)) return null;
  return {
    inputTokens: sumCounts(meta['promptTokenCount'], meta['toolUsePromptTokenCount']),
    cachedInputTokens: count(meta['cachedContentTokenCount']),
    outputTokens: sumCounts(meta['candidatesTokenCount'], meta['thoughtsTokenCount']),
  };
}

/**
 * Gemini's grounding chunk URIs are opaque redirect links (vertexaisearch.cloud.google.com/
 * grounding-api-redirect/...) that expire and hide the source; the chunk's `title` is then the
 * source's domain. Callers key citations on the URL, so such a chunk becomes `https://<domain>/`
 * titled with the domain; the redirect itself stays in `raw`. Any other chunk is kept as it is.
 */
function groundingCitation(web: Record<string, unknown>): { url: unknown; title: unknown } {
  const { uri, title } = web;
  if (typeof uri === 'string' && typeof title === 'string' && isGroundingRedirect(uri)) {
    const domain = title.trim().toLowerCase().replace(/\.$/, '');
    if (DOMAIN.test(domain)) return { url: `https://${domain}/`, title: domain };
  }
  return { url: uri, title };
}

function isGroundingRedirect(uri: string): boolean {
  try {
    const url = new URL(uri);
    return url.hostname === REDIRECT_HOST && url.pathname.startsWith(REDIRECT_PATH);
  } catch {
    return false;
  }
}
