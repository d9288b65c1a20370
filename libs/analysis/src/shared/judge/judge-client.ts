import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { JUDGE_QUEUE_PROVIDER } from '../../analysis.config';
import type { Provider } from '../../domain';
import { anthropicFailure } from '../engines/anthropic-engine';
import { deadlineSignal } from '../engines/engine-options';
import { openAiFailure } from '../engines/openai-engine';
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

/** Whose price a judge call of `labeller` is billed at: the answer provider whose key it uses (JUDGE_QUEUE_PROVIDER) and the judge's model; null for a labeller that is not a judge. */
export function judgeBilling(labeller: string): { provider: Provider; model: string } | null {
  const m = /^judge:(openai|anthropic)\/(.+)$/.exec(labeller);
  return m ? { provider: JUDGE_QUEUE_PROVIDER[m[1] as JudgeProvider], model: m[2] } : null;
}

/** The judge client of a provider, on its official SDK (the same SDKs the answer engines use; no SDK retries: the queue retries). */
export function createJudgeClient(options: JudgeClientOptions): SentimentJudgeClient {
  const sdkOptions = { apiKey: options.apiKey, baseURL: options.baseUrl ?? undefined, maxRetries: 0, timeout: options.timeoutMs };
  if (options.provider === 'openai') {
    const client: OpenAI = new (require('openai') as typeof import('openai')).default(sdkOptions); // eslint-disable-line @typescript-eslint/no-require-imports
    return sdkJudge(options, {
      call: (answer, names, signal) => client.responses.create(openAiJudgeRequest(options.model, answer, names) as OpenAI.Responses.ResponseCreateParamsNonStreaming, { signal }),
      failure: openAiFailure,
      read: readOpenAiJudgeReply,
    });
  }
  const client: Anthropic = new (require('@anthropic-ai/sdk') as typeof import('@anthropic-ai/sdk')).default(sdkOptions); // eslint-disable-line @typescript-eslint/no-require-imports
  return sdkJudge(options, {
    call: (answer, names, signal) => client.messages.create(anthropicJudgeRequest(options.model, answer, names) as Anthropic.MessageCreateParamsNonStreaming, { signal }),
    failure: anthropicFailure,
    read: readAnthropicJudgeReply,
  });
}

/** How one provider's SDK is called, its errors read (never leaking the key), and its reply read. */
interface JudgeWire {
  call(answer: string, names: readonly string[], signal: AbortSignal): Promise<unknown>;
  failure(error: unknown, aborted: boolean, apiKey: string): Error;
  read(body: unknown, asked: readonly string[], requestedModel: string): JudgeReply;
}

function sdkJudge(options: JudgeClientOptions, wire: JudgeWire): SentimentJudgeClient {
  return {
    provider: options.provider,
    model: options.model,
    labeller: judgeLabeller(options.provider, options.model),
    async judge(answer, names, signal) {
      // The SDK's timeout stops at the headers; this deadline also bounds reading the body.
      const deadline = deadlineSignal(options.timeoutMs, signal);
      let body: unknown;
      try {
        body = await wire.call(answer, names, deadline);
      } catch (error) {
        throw wire.failure(error, deadline.aborted, options.apiKey);
      }
      return wire.read(body, names, options.model);
    },
  };
}
