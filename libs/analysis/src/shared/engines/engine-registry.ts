import { Injectable } from '@nestjs/common';
import { InjectConfig } from '@libs/config';
import { PROVIDERS, type Provider } from '../../domain';
import { ANALYSIS_CONFIG, type AnalysisConfig } from '../../analysis.config';
import type { AnswerEngine } from './answer-engine';
import { AnthropicEngine } from './anthropic-engine';
import { GeminiEngine } from './gemini-engine';
import { OpenAiEngine } from './openai-engine';
import { PerplexityEngine } from './perplexity-engine';
import { RecordedEngine } from './recorded-engine';
import type { LiveEngineOptions } from './engine-options';

const LIVE: Readonly<Record<Provider, new (options: LiveEngineOptions) => AnswerEngine>> = {
  chatgpt: OpenAiEngine,
  claude: AnthropicEngine,
  gemini: GeminiEngine,
  perplexity: PerplexityEngine,
};

/** The engine of each provider: its live adapter when it has an API key, else the recorded source (DESIGN §13.1). */
@Injectable()
export class Engines {
  private readonly engines: ReadonlyMap<Provider, AnswerEngine>;

  constructor(@InjectConfig(ANALYSIS_CONFIG) config: AnalysisConfig) {
    this.engines = new Map(
      PROVIDERS.map((p) => {
        const s = config.providers[p];
        return [p, s.apiKey === null ? new RecordedEngine(p) : new LIVE[p]({ apiKey: s.apiKey, model: s.model, baseUrl: s.baseUrl, timeoutMs: config.timeoutMs })];
      }),
    );
  }

  for(provider: Provider): AnswerEngine {
    return this.engines.get(provider)!;
  }
}
