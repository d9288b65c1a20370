/**
 * Local stand-ins for the four answer engines' APIs: one node:http server each on 127.0.0.1,
 * answering the paths the official SDKs call with the bodies the providers document, so the
 * real SDK clients can be tested end to end without network.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeAnswer {
  readonly text: string;
  readonly citations: readonly { readonly url: string; readonly title: string }[];
}

/** Token counts a success reports, written in each provider's own usage fields (input counts the cached input; Perplexity has no cache). */
export interface FakeUsage {
  readonly input: number;
  readonly cachedInput: number;
  readonly output: number;
}

/** What the next request gets instead of an answer; each scripted fault is used once, in order. */
export type FakeFault =
  | { readonly status: number; readonly retryAfter?: string }
  | { readonly delayMs: number }
  /** 200 with a JSON body not in the provider's format, or (`'not-json'`) a JSON-typed body that does not parse. */
  | { readonly malformed: true | 'not-json' }
  | { readonly refusal: true };

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The parsed JSON body, or the raw text when it does not parse. */
  readonly body: unknown;
  /** The market the request asked for, read the provider's way (DESIGN §17): null parts when it names none. */
  readonly market: RecordedMarket;
}

/** What a request says about its market: the country where the API takes one, and the instruction text (system, instructions) where the language (or, for Gemini, the country) is said. */
export interface RecordedMarket {
  readonly country: string | null;
  readonly instruction: string | null;
  /** Perplexity's `search_language_filter`, when sent. */
  readonly languageFilter: readonly string[] | null;
}

export interface FakeProvider {
  /** The base URL in the form the provider's SDK (or, for Perplexity, its documented API) expects. */
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  script(...faults: FakeFault[]): void;
  setAnswer(answer: (query: string) => FakeAnswer): void;
  /** Every success from now on reports these tokens (null: counts derived from the text, the default). */
  setUsage(usage: FakeUsage | null): void;
  /** Every answer from now on takes this long (a provider's own latency; 0 by default). */
  setLatency(ms: number): void;
  /** When each request arrived (ms since the epoch), in order. */
  readonly arrivals: number[];
  /**
   * How sentiment-judge requests (DESIGN §17: structured output / forced tool use) are answered:
   * the labels for the asked names and the answer text (by default every asked name `positive`).
   */
  setJudgement(judgement: FakeJudgement): void;
  /** Clears the recorded requests, the scripted faults, the latency, a custom answer and judgement. */
  reset(): void;
}

/** A judge's labels for one request: the entities it returns (names may include ones not asked). */
export type FakeJudgement = (answer: string, names: readonly string[]) => { name: string; sentiment: string; evidence: string }[];

export const defaultJudgement: FakeJudgement = (_answer, names) => names.map((name) => ({ name, sentiment: 'positive', evidence: `${name} is recommended.` }));

export interface FakeProviders {
  readonly openai: FakeProvider;
  readonly anthropic: FakeProvider;
  readonly gemini: FakeProvider;
  readonly perplexity: FakeProvider;
  close(): Promise<void>;
}

/** The environment that points the four providers' adapters at the fakes (keys the fakes accept, their base URLs). */
export function fakeProviderEnv(fakes: FakeProviders): Record<string, string> {
  return {
    OPENAI_API_KEY: 'sk-test-openai',
    OPENAI_BASE_URL: fakes.openai.baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-test',
    ANTHROPIC_BASE_URL: fakes.anthropic.baseUrl,
    GEMINI_API_KEY: 'gemini-test',
    GEMINI_BASE_URL: fakes.gemini.baseUrl,
    PERPLEXITY_API_KEY: 'pplx-test',
    PERPLEXITY_BASE_URL: fakes.perplexity.baseUrl,
  };
}

/** A deterministic answer from the query: three sentences, each citing one source. */
export function defaultAnswer(query: string): FakeAnswer {
  return {
    text: `For "${query}", Acme is the most cited option. Globex is a strong alternative. Initech is cheaper for small teams.`,
    citations: [
      { url: 'https://www.acme.com/guide', title: 'The Acme guide' },
      { url: 'https://globex.com/compare', title: 'Globex vs Acme' },
      { url: 'https://initech.io/pricing', title: 'Initech pricing' },
    ],
  };
}

/** What a provider's wire format adds around an answer: how to read the query, and each kind of body. */
interface Dialect {
  /** The one path answered (anything else gets the provider's 404). */
  matches(method: string, path: string): boolean;
  baseUrl(origin: string): string;
  /** The key the request carries in the provider's auth header, or null. */
  key(headers: IncomingHttpHeaders): string | null;
  query(body: unknown): string;
  market(body: unknown): RecordedMarket;
  model(body: unknown, path: string): string;
  success(answer: FakeAnswer, query: string, model: string, usage: FakeUsage | null): unknown;
  refusal(query: string, model: string): unknown;
  malformed(model: string): unknown;
  error(status: number, message: string, retryAfter: string | undefined): unknown;
  /** Sentiment-judge requests (OpenAI and Anthropic only): how to know one, read it, and answer it. */
  judge?: JudgeDialect;
}

interface JudgeDialect {
  is(body: unknown): boolean;
  /** The answer text and the entity names of the request's input. */
  read(body: unknown): { answer: string; names: string[] };
  success(labels: ReturnType<FakeJudgement>, model: string, inputChars: number): unknown;
  /** 200 whose labels are not valid JSON (OpenAI output text) or not the schema (Anthropic tool input). */
  malformed(model: string): unknown;
}

/** Reads the judge input written by the judge client: the "- name" lines, then the answer between <answer> tags. */
function readJudgeInput(text: string): { answer: string; names: string[] } {
  const [head, rest = ''] = text.split('<answer>\n');
  const names = head.split('\n').filter((line) => line.startsWith('- ')).map((line) => line.slice(2));
  return { answer: rest.replace(/\n<\/answer>$/, ''), names };
}

export async function startFakeProviders(): Promise<FakeProviders> {
  const fakes = await Promise.all([start(openAi), start(anthropic), start(gemini), start(perplexity)]);
  const [openaiFake, anthropicFake, geminiFake, perplexityFake] = fakes;
  return {
    openai: openaiFake.provider,
    anthropic: anthropicFake.provider,
    gemini: geminiFake.provider,
    perplexity: perplexityFake.provider,
    close: async () => {
      await Promise.all(fakes.map((fake) => fake.close()));
    },
  };
}

async function start(dialect: Dialect): Promise<{ provider: FakeProvider; close(): Promise<void> }> {
  const requests: RecordedRequest[] = [];
  const faults: FakeFault[] = [];
  let answer: (query: string) => FakeAnswer = defaultAnswer;
  let latencyMs = 0;
  let usage: FakeUsage | null = null;
  let judgement: FakeJudgement = defaultJudgement;
  const arrivals: number[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { error: { message: `fake provider failed: ${String(error)}` } });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    const path = req.url ?? '/';
    const method = req.method ?? 'GET';
    let body: unknown = text;
    try {
      body = text === '' ? null : JSON.parse(text);
    } catch {
      // Recorded as text: the test then sees what was sent.
    }
    requests.push({ method, path, headers: req.headers, body, market: dialect.market(body) });
    arrivals.push(Date.now());
    if (latencyMs > 0) {
      await sleep(latencyMs);
      if (res.destroyed || req.socket.destroyed) return;
    }

    if (!dialect.matches(method, path)) return send(res, 404, dialect.error(404, `No route for ${method} ${path}`, undefined));
    const key = dialect.key(req.headers);
    if (key === null || key === '') return send(res, 401, dialect.error(401, 'No API key provided.', undefined));
    const model = dialect.model(body, path);
    const query = dialect.query(body);

    const fault = faults.shift();
    if (fault !== undefined && 'delayMs' in fault) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, fault.delayMs);
        timers.add(timer);
      });
      if (res.destroyed || req.socket.destroyed) return;
    }
    if (fault !== undefined && 'status' in fault) {
      // The real APIs mask a wrong key in their 401 message; echoing it whole proves the adapter strips it.
      const message = fault.status === 401 ? `Incorrect API key provided: ${key}.` : `Scripted failure ${fault.status}.`;
      const headers: Record<string, string> = fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter };
      return send(res, fault.status, dialect.error(fault.status, message, fault.retryAfter), headers);
    }
    const judge = dialect.judge?.is(body) ? dialect.judge : undefined;
    if (fault !== undefined && 'malformed' in fault) {
      if (fault.malformed === 'not-json') return sendRaw(res, 200, '<html><body>Bad gateway</body></html>');
      return send(res, 200, judge ? judge.malformed(model) : dialect.malformed(model));
    }
    if (fault !== undefined && 'refusal' in fault) return send(res, 200, dialect.refusal(query, model));
    if (judge) {
      const input = judge.read(body);
      return send(res, 200, judge.success(judgement(input.answer, input.names), model, text.length));
    }
    return send(res, 200, dialect.success(answer(query), query, model, usage));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  const provider: FakeProvider = {
    baseUrl: dialect.baseUrl(`http://127.0.0.1:${port}`),
    requests,
    arrivals,
    setLatency: (ms) => {
      latencyMs = ms;
    },
    setUsage: (u) => {
      usage = u;
    },
    script: (...scripted) => {
      faults.push(...scripted);
    },
    setAnswer: (fn) => {
      answer = fn;
    },
    setJudgement: (fn) => {
      judgement = fn;
    },
    reset: () => {
      judgement = defaultJudgement;
      requests.length = 0;
      arrivals.length = 0;
      latencyMs = 0;
      usage = null;
      faults.length = 0;
      answer = defaultAnswer;
    },
  };
  return {
    provider,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendRaw(res, status, JSON.stringify(body), headers);
}

function sendRaw(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

// ---- shared helpers of the dialects ----

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function bearer(headers: IncomingHttpHeaders): string | null {
  const value = headers.authorization;
  return typeof value === 'string' && value.startsWith('Bearer ') ? value.slice('Bearer '.length) : null;
}

/** The text of the last user message of a chat-style `messages` array (string or content blocks). */
function lastUserText(messages: unknown): string {
  const list = Array.isArray(messages) ? messages : [];
  const content = record(list[list.length - 1])['content'];
  if (typeof content === 'string') return content;
  return (Array.isArray(content) ? content : []).map((block) => String(record(block)['text'] ?? '')).join('');
}

/** [start, end) of each sentence of the text (the spans the citations annotate). */
function sentences(text: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  for (const match of text.matchAll(/[^.!?]+[.!?]*\s*/g)) spans.push({ start: match.index, end: match.index + match[0].length });
  return spans.length > 0 ? spans : [{ start: 0, end: text.length }];
}

/** Which sentence cites which sources: source i in sentence i (the last takes the rest); the first source is cited again at the end, as engines do. */
function citationsBySentence(answer: FakeAnswer): { start: number; end: number; sources: number[] }[] {
  const spans = sentences(answer.text).map((span) => ({ ...span, sources: [] as number[] }));
  answer.citations.forEach((_, i) => spans[Math.min(i, spans.length - 1)].sources.push(i));
  if (answer.citations.length > 1) spans[spans.length - 1].sources.push(0);
  return spans;
}

function hostOf(url: string): string {
  return new URL(url).hostname.replace(/^www\./, '');
}

function tokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

let sequence = 0;
function id(prefix: string): string {
  sequence += 1;
  return `${prefix}${sequence.toString(16).padStart(24, '0')}`;
}

/** The country of the first tool's `user_location` (OpenAI's and Anthropic's web search tools). */
function toolCountry(body: unknown): string | null {
  const tools = record(body)['tools'];
  for (const tool of Array.isArray(tools) ? tools : []) {
    const country = record(record(tool)['user_location'])['country'];
    if (typeof country === 'string') return country;
  }
  return null;
}

const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

// ---- OpenAI Responses API (POST /v1/responses) ----

const openAi: Dialect = {
  matches: (method, path) => method === 'POST' && path === '/v1/responses',
  baseUrl: (origin) => `${origin}/v1`,
  key: bearer,
  query: (body) => {
    const input = record(body)['input'];
    return typeof input === 'string' ? input : lastUserText(input);
  },
  market: (body) => ({ country: toolCountry(body), instruction: stringOrNull(record(body)['instructions']), languageFilter: null }),
  model: (body) => String(record(body)['model'] ?? 'gpt-4.1'),
  success: (answer, query, model, usage) =>
    openAiResponse(model, query, usage, [
      {
        type: 'output_text',
        text: answer.text,
        annotations: citationsBySentence(answer).flatMap((span) =>
          span.sources.map((i) => ({ type: 'url_citation', start_index: span.start, end_index: span.end, url: answer.citations[i].url, title: answer.citations[i].title })),
        ),
        logprobs: [],
      },
    ]),
  refusal: (query, model) => openAiResponse(model, query, null, [{ type: 'refusal', refusal: "I'm sorry, but I can't help with that request." }]),
  malformed: (model) => ({ id: id('resp_'), object: 'response', model, status: 'completed', output: 'not a list' }),
  judge: {
    is: (body) => record(record(record(body)['text'])['format'])['type'] === 'json_schema',
    read: (body) => readJudgeInput(String(record(body)['input'] ?? '')),
    success: (labels, model, inputChars) => judgeResponse(model, JSON.stringify({ entities: labels }), inputChars),
    malformed: (model) => judgeResponse(model, '{"entities": [{"name": "Acme", "sentiment": "posi', 40),
  },
  error: (status, message) => ({
    error: {
      message,
      type: status === 429 ? 'requests' : status >= 500 ? 'server_error' : 'invalid_request_error',
      param: null,
      code: status === 401 ? 'invalid_api_key' : status === 429 ? 'rate_limit_exceeded' : null,
    },
  }),
};

/** A Responses API reply to a structured-output request: one message whose output text is the JSON. */
function judgeResponse(model: string, outputText: string, inputChars: number): unknown {
  return {
    id: id('resp_'),
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: 'completed',
    error: null,
    incomplete_details: null,
    model,
    output: [{ type: 'message', id: id('msg_'), status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: outputText, annotations: [], logprobs: [] }] }],
    text: { format: { type: 'json_schema', name: 'entity_sentiment', strict: true } },
    tools: [],
    usage: { input_tokens: tokens('x'.repeat(inputChars)), input_tokens_details: { cached_tokens: 0 }, output_tokens: tokens(outputText), output_tokens_details: { reasoning_tokens: 0 }, total_tokens: tokens('x'.repeat(inputChars)) + tokens(outputText) },
  };
}

function openAiResponse(model: string, query: string, usage: FakeUsage | null, content: unknown[]): unknown {
  const text = content.map((part) => String(record(part)['text'] ?? record(part)['refusal'] ?? '')).join('');
  const input = usage?.input ?? tokens(query) + 300;
  const output = usage?.output ?? tokens(text);
  return {
    id: id('resp_'),
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: 'completed',
    background: false,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model,
    output: [
      { type: 'web_search_call', id: id('ws_'), status: 'completed', action: { type: 'search', query } },
      { type: 'message', id: id('msg_'), status: 'completed', role: 'assistant', content },
    ],
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: true,
    temperature: 1,
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: 'auto',
    tools: [{ type: 'web_search', filters: null, search_context_size: 'medium', user_location: { type: 'approximate', city: null, country: 'US', region: null, timezone: null } }],
    top_p: 1,
    truncation: 'disabled',
    usage: {
      input_tokens: input,
      input_tokens_details: { cached_tokens: usage?.cachedInput ?? 0 },
      output_tokens: output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: input + output,
    },
    user: null,
    metadata: {},
  };
}

// ---- Anthropic Messages API (POST /v1/messages) ----

const anthropic: Dialect = {
  matches: (method, path) => method === 'POST' && path === '/v1/messages',
  baseUrl: (origin) => origin,
  key: (headers) => (typeof headers['x-api-key'] === 'string' ? headers['x-api-key'] : bearer(headers)),
  query: (body) => lastUserText(record(body)['messages']),
  market: (body) => {
    const system = record(body)['system'];
    const instruction = typeof system === 'string' ? system : Array.isArray(system) ? system.map((block) => String(record(block)['text'] ?? '')).join('') : null;
    return { country: toolCountry(body), instruction, languageFilter: null };
  },
  model: (body) => String(record(body)['model'] ?? 'claude-sonnet-4-6'),
  success: (answer, query, model, usage) => {
    const toolUseId = id('srvtoolu_');
    const text = citationsBySentence(answer).map((span) => {
      const block: Record<string, unknown> = { type: 'text', text: answer.text.slice(span.start, span.end) };
      if (span.sources.length > 0) {
        block['citations'] = span.sources.map((i) => ({
          type: 'web_search_result_location',
          url: answer.citations[i].url,
          title: answer.citations[i].title,
          encrypted_index: Buffer.from(`index-${i}`).toString('base64'),
          cited_text: answer.text.slice(span.start, span.end).trim(),
        }));
      }
      return block;
    });
    return anthropicMessage(model, 'end_turn', query, usage, [
      { type: 'server_tool_use', id: toolUseId, name: 'web_search', input: { query } },
      {
        type: 'web_search_tool_result',
        tool_use_id: toolUseId,
        content: answer.citations.map((citation, i) => ({
          type: 'web_search_result',
          url: citation.url,
          title: citation.title,
          encrypted_content: Buffer.from(`content-${i}`).toString('base64'),
          page_age: 'April 30, 2025',
        })),
      },
      ...text,
    ]);
  },
  refusal: (query, model) => anthropicMessage(model, 'refusal', query, null, []),
  judge: {
    is: (body) => record(record(body)['tool_choice'])['type'] === 'tool',
    read: (body) => readJudgeInput(lastUserText(record(body)['messages'])),
    success: (labels, model, inputChars) => judgeMessage(model, { entities: labels }, inputChars),
    malformed: (model) => judgeMessage(model, { entities: 'Acme: positive' }, 40),
  },
  malformed: (model) => ({ id: id('msg_'), type: 'message', role: 'assistant', model, content: { text: 'not a list' } }),
  error: (status, message) => ({
    type: 'error',
    error: {
      type:
        status === 401 ? 'authentication_error'
        : status === 429 ? 'rate_limit_error'
        : status === 529 ? 'overloaded_error'
        : status >= 500 ? 'api_error'
        : status === 404 ? 'not_found_error'
        : 'invalid_request_error',
      message,
    },
    request_id: id('req_'),
  }),
};

/** A Messages API reply to a forced tool call: one tool_use block whose input is the labels. */
function judgeMessage(model: string, input: unknown, inputChars: number): unknown {
  return {
    id: id('msg_'),
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'tool_use', id: id('toolu_'), name: 'record_entity_sentiment', input }],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: tokens('x'.repeat(inputChars)) + 400, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: tokens(JSON.stringify(input)), service_tier: 'standard' },
  };
}

function anthropicMessage(model: string, stopReason: string, query: string, usage: FakeUsage | null, content: unknown[]): unknown {
  const text = content.map((block) => (record(block)['type'] === 'text' ? String(record(block)['text']) : '')).join('');
  return {
    id: id('msg_'),
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: {
      // input_tokens leave out what was read from the cache.
      input_tokens: usage === null ? tokens(query) + 2000 : usage.input - usage.cachedInput,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: usage?.cachedInput ?? 0,
      output_tokens: usage?.output ?? tokens(text),
      server_tool_use: { web_search_requests: 1 },
      service_tier: 'standard',
    },
  };
}

// ---- Gemini API generateContent (POST /v1beta/models/{model}:generateContent) ----

const GEMINI_PATH = /^\/v1beta\/models\/([^/:?]+):generateContent(?:\?.*)?$/;
const GEMINI_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

const gemini: Dialect = {
  matches: (method, path) => method === 'POST' && GEMINI_PATH.test(path),
  // The SDK appends the API version (v1beta) itself.
  baseUrl: (origin) => origin,
  key: (headers) => (typeof headers['x-goog-api-key'] === 'string' ? headers['x-goog-api-key'] : null),
  query: (body) => {
    const contents = record(body)['contents'];
    const last = Array.isArray(contents) ? contents[contents.length - 1] : contents;
    const parts = record(last)['parts'];
    return (Array.isArray(parts) ? parts : []).map((part) => String(record(part)['text'] ?? '')).join('');
  },
  // Google Search grounding takes no location: the market is in the system instruction only.
  market: (body) => {
    const parts = record(record(body)['systemInstruction'])['parts'];
    const instruction = Array.isArray(parts) ? parts.map((part) => String(record(part)['text'] ?? '')).join('') : null;
    return { country: null, instruction, languageFilter: null };
  },
  model: (_body, path) => decodeURIComponent(GEMINI_PATH.exec(path)?.[1] ?? 'gemini-2.5-flash'),
  success: (answer, query, model, usage) => {
    // One grounding chunk per distinct source, its uri an opaque redirect and its title the source's domain.
    const chunkOf = new Map<string, number>();
    const chunks: { web: { uri: string; title: string } }[] = [];
    for (const citation of answer.citations) {
      if (chunkOf.has(citation.url)) continue;
      chunkOf.set(citation.url, chunks.length);
      const token = Buffer.from(citation.url).toString('base64url');
      chunks.push({ web: { uri: `https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQ${token}`, title: hostOf(citation.url) } });
    }
    const spans = citationsBySentence(answer);
    const half = spans.length > 1 ? spans[Math.floor(spans.length / 2)].start : answer.text.length;
    const textBytes = (end: number): number => Buffer.byteLength(answer.text.slice(0, end));
    return {
      candidates: [
        {
          // Long answers come in several parts.
          content: { parts: [{ text: answer.text.slice(0, half) }, { text: answer.text.slice(half) }].filter((part) => part.text !== ''), role: 'model' },
          finishReason: 'STOP',
          index: 0,
          groundingMetadata: {
            webSearchQueries: [query],
            searchEntryPoint: { renderedContent: '<style>.container{}</style><div class="container">…</div>' },
            groundingChunks: chunks,
            groundingSupports: spans
              .filter((span) => span.sources.length > 0)
              .map((span) => ({
                segment: { startIndex: textBytes(span.start), endIndex: textBytes(span.end), text: answer.text.slice(span.start, span.end).trim() },
                groundingChunkIndices: [...new Set(span.sources.map((i) => chunkOf.get(answer.citations[i].url) ?? 0))],
                confidenceScores: span.sources.map(() => 0.9),
              })),
          },
        },
      ],
      usageMetadata:
        usage === null ?
          {
            promptTokenCount: tokens(query),
            candidatesTokenCount: tokens(answer.text),
            totalTokenCount: tokens(query) + tokens(answer.text) + 120,
            toolUsePromptTokenCount: 120,
            promptTokensDetails: [{ modality: 'TEXT', tokenCount: tokens(query) }],
          }
        : {
            // The prompt counts its cached part, reported beside it (only when there is one, as the API does).
            promptTokenCount: usage.input,
            ...(usage.cachedInput > 0 && { cachedContentTokenCount: usage.cachedInput }),
            candidatesTokenCount: usage.output,
            totalTokenCount: usage.input + usage.output,
            promptTokensDetails: [{ modality: 'TEXT', tokenCount: usage.input }],
          },
      modelVersion: model,
      responseId: id('gem'),
    };
  },
  // A blocked prompt: no candidates, only the reason.
  refusal: (query, model) => ({
    promptFeedback: {
      blockReason: 'SAFETY',
      safetyRatings: [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true }],
    },
    usageMetadata: { promptTokenCount: tokens(query), totalTokenCount: tokens(query) },
    modelVersion: model,
    responseId: id('gem'),
  }),
  malformed: () => ({ kind: 'not a GenerateContentResponse', items: [] }),
  error: (status, message, retryAfter) => ({
    error: {
      code: status,
      message,
      status: GEMINI_STATUS[status] ?? 'UNKNOWN',
      details:
        status === 429 ?
          [
            {
              '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
              violations: [{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests', quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier' }],
            },
            { '@type': 'type.googleapis.com/google.rpc.Help', links: [{ description: 'Learn more about Gemini API quotas', url: 'https://ai.google.dev/gemini-api/docs/rate-limits' }] },
            ...(retryAfter === undefined ? [] : [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${retryAfter}s` }]),
          ]
        : status === 401 || status === 400 ? [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }]
        : [],
    },
  }),
};

// ---- Perplexity chat completions (POST /chat/completions) ----

const perplexity: Dialect = {
  matches: (method, path) => method === 'POST' && path === '/chat/completions',
  baseUrl: (origin) => origin,
  key: bearer,
  query: (body) => lastUserText(record(body)['messages']),
  market: (body) => {
    const messages = record(body)['messages'];
    const system = (Array.isArray(messages) ? messages : []).find((m) => record(m)['role'] === 'system');
    const filter = record(body)['search_language_filter'];
    return {
      country: stringOrNull(record(record(record(body)['web_search_options'])['user_location'])['country']),
      instruction: system === undefined ? null : stringOrNull(record(system)['content']),
      languageFilter: Array.isArray(filter) ? filter.map(String) : null,
    };
  },
  model: (body) => String(record(body)['model'] ?? 'sonar'),
  success: (answer, query, model, usage) => {
    // Perplexity lists each source once, in the order the text cites them.
    const distinct = answer.citations.filter((citation, i) => answer.citations.findIndex((other) => other.url === citation.url) === i);
    return perplexityCompletion(model, query, answer.text, distinct, usage);
  },
  refusal: (query, model) => perplexityCompletion(model, query, '', []),
  malformed: (model) => ({ id: id(''), model, object: 'chat.completion', choices: 'none' }),
  error: (status, message) => ({ error: { message, type: status === 401 ? 'invalid_api_key' : status === 429 ? 'rate_limit_exceeded' : 'api_error', code: status } }),
};

function perplexityCompletion(model: string, query: string, text: string, sources: readonly { url: string; title: string }[], usage: FakeUsage | null = null): unknown {
  const input = usage?.input ?? tokens(query);
  const output = usage?.output ?? tokens(text);
  return {
    id: id(''),
    model,
    created: Math.floor(Date.now() / 1000),
    usage: {
      prompt_tokens: input,
      completion_tokens: output,
      total_tokens: input + output,
      search_context_size: 'low',
      cost: { input_tokens_cost: 0, output_tokens_cost: 0, request_cost: 0.005, total_cost: 0.005 },
    },
    citations: sources.map((source) => source.url),
    search_results: sources.map((source) => ({ title: source.title, url: source.url, date: '2025-03-20', last_updated: '2025-04-02', snippet: `${source.title}…` })),
    object: 'chat.completion',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: text } }],
  };
}
