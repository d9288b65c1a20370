import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { anthropicFailure } from '../shared/engines/anthropic-engine';
import { deadlineSignal } from '../shared/engines/engine-options';
import { openAiFailure } from '../shared/engines/openai-engine';
import { anthropicJudgeRequest, openAiJudgeRequest, readAnthropicJudgeReply, readOpenAiJudgeReply, type JudgeProvider, type JudgeReply } from './judge-wire';

export interface JudgeClientOptions {
  readonly provider: JudgeProvider;
  readonly apiKey: string;
  readonly model: string;
  /** null: the SDK's default endpoint. */
  readonly baseUrl: string | null;
  readonly timeoutMs: number;
}

/** Labels the mentioned entities of one answer; throws EngineError (retryable or not) on any failure. */
export interface SentimentJudgeClient {
  readonly provider: JudgeProvider;
  readonly model: string;
  /** `judge:<provider>/<model>`: the labeller recorded with its labels. */
  readonly labeller: string;
  judge(answer: string, names: readonly string[], signal?: AbortSignal): Promise<JudgeReply>;
}

export const judgeLabeller = (provider: JudgeProvider, model: string) => `judge:${provider}/${model}`;

/** The judge client of a provider, on its official SDK (the same SDKs the answer engines use; no SDK retries: the queue retries). */
export function createJudgeClient(options: JudgeClientOptions): SentimentJudgeClient {
  return options.provider === 'openai' ? new OpenAiJudge(options) : new AnthropicJudge(options);
}

class OpenAiJudge implements SentimentJudgeClient {
  readonly provider = 'openai' as const;
  readonly labeller: string;
  private readonly client: OpenAI;

  constructor(private readonly options: JudgeClientOptions) {
    this.labeller = judgeLabeller('openai', options.model);
    const sdk = require('openai') as typeof import('openai'); // eslint-disable-line @typescript-eslint/no-require-imports
    this.client = new sdk.default({ apiKey: options.apiKey, baseURL: options.baseUrl ?? undefined, maxRetries: 0, timeout: options.timeoutMs });
  }

  get model(): string {
    return this.options.model;
  }

  async judge(answer: string, names: readonly string[], signal?: AbortSignal): Promise<JudgeReply> {
    const deadline = deadlineSignal(this.options.timeoutMs, signal);
    let body: unknown;
    try {
      body = await this.client.responses.create(openAiJudgeRequest(this.options.model, answer, names) as OpenAI.Responses.ResponseCreateParamsNonStreaming, { signal: deadline });
    } catch (error) {
      throw openAiFailure(error, deadline.aborted, this.options.apiKey);
    }
    return readOpenAiJudgeReply(body, names, this.options.model);
  }
}

class AnthropicJudge implements SentimentJudgeClient {
  readonly provider = 'anthropic' as const;
  readonly labeller: string;
  private readonly client: Anthropic;

  constructor(private readonly options: JudgeClientOptions) {
    this.labeller = judgeLabeller('anthropic', options.model);
    const sdk = require('@anthropic-ai/sdk') as typeof import('@anthropic-ai/sdk'); // eslint-disable-line @typescript-eslint/no-require-imports
    this.client = new sdk.default({ apiKey: options.apiKey, baseURL: options.baseUrl ?? undefined, maxRetries: 0, timeout: options.timeoutMs });
  }

  get model(): string {
    return this.options.model;
  }

  async judge(answer: string, names: readonly string[], signal?: AbortSignal): Promise<JudgeReply> {
    const deadline = deadlineSignal(this.options.timeoutMs, signal);
    let body: unknown;
    try {
      body = await this.client.messages.create(anthropicJudgeRequest(this.options.model, answer, names) as Anthropic.MessageCreateParamsNonStreaming, { signal: deadline });
    } catch (error) {
      throw anthropicFailure(error, deadline.aborted, this.options.apiKey);
    }
    return readAnthropicJudgeReply(body, names, this.options.model);
  }
}
