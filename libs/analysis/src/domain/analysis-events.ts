import { eventDecoder, type StoredEventLike } from '@libs/event-sourcing';
import type { Provider } from './providers';

/*
 * The events of analysis runs (DESIGN §13.1). A run's lifecycle is in `analysis-run-<id>`; each
 * answer in its own stream `answer-<runId>-<n>`, so concurrent jobs never contend on one stream.
 */

export type RunTrigger = 'api' | 'schedule' | 'seed';
export type RunStatus = 'queued' | 'running' | 'completed' | 'partial' | 'failed';

/** One question of a run: which query, asked of which provider (n: its place in the run, 0-based). */
export interface RunItem {
  readonly n: number;
  readonly promptId: number | null;
  readonly query: string;
  readonly provider: Provider;
  /** The market asked for (DESIGN §17): absent or null in runs before markets, and where none is set. */
  readonly country?: string | null;
  readonly language?: string | null;
}

export interface AnalysisRunRequested {
  type: 'analysis_run.requested';
  data: {
    runId: number;
    organizationId: number;
    brandId: number;
    trigger: RunTrigger;
    auditRequestId: number | null;
    queries: string[];
    providers: Provider[];
    items: RunItem[];
    requestedAt: string;
  };
}

export interface AnalysisRunStarted {
  type: 'analysis_run.started';
  data: { runId: number; startedAt: string };
}

export interface AnalysisRunCompleted {
  type: 'analysis_run.completed';
  data: {
    runId: number;
    status: 'completed' | 'partial' | 'failed';
    answersRecorded: number;
    answersFailed: number;
    completedAt: string;
    /** Why a run ended partial on purpose: `budget_exhausted` when a budget stopped it asking (absent otherwise, and in runs before issue 32). */
    reason?: RunEndReason;
    /** Answers not asked because a budget would have been exceeded (counted in answersFailed; absent when none). */
    answersNotAsked?: number;
  };
}

export type RunEndReason = 'budget_exhausted';

export type AnalysisRunEvent = AnalysisRunRequested | AnalysisRunStarted | AnalysisRunCompleted;

/** What every answer event says about where it belongs. */
interface AnswerKey {
  runId: number;
  n: number;
  organizationId: number;
  brandId: number;
  /** The tracked prompt asked (null for an audit request's query), and the query as asked. */
  promptId: number | null;
  query: string;
  provider: Provider;
  /** The market it was asked for (absent in answers recorded before markets, or null: the provider's default). */
  country?: string | null;
  language?: string | null;
}

export interface AnswerRecorded {
  type: 'answer.recorded';
  data: AnswerKey & {
    model: string;
    source: 'live' | 'recorded';
    text: string;
    providerCitations: { url: string; title: string | null }[];
    /** Sources beyond the ones kept (MAX_CITATIONS), when the engine cited more. */
    citationsDropped?: number;
    /** The provider's reported tokens (input includes cached input); `cachedInputTokens` is absent in answers recorded before issue 32. */
    usage: AnswerUsage | null;
    latencyMs: number;
    askedAt: string;
    /** The provider's response body as JSON text, cut at RAW_RESPONSE_LIMIT characters (null when cut or absent). */
    raw: string | null;
  };
}

/** Tokens of one provider reply, as recorded with its answer (null: the provider left the figure out). */
export interface AnswerUsage {
  inputTokens: number | null;
  cachedInputTokens?: number | null;
  outputTokens: number | null;
}

export interface AnswerFailed {
  type: 'answer.failed';
  /** kind: an engine failure kind, or `budget_exhausted` (a budget would have been exceeded: nothing was asked, attempts 0). */
  data: AnswerKey & { reason: string; kind: string; attempts: number; askedAt: string; failedAt: string };
}

/** One tracked entity in one answer, as the engine read it. */
export interface AnalysedEntity {
  entityId: string;
  kind: 'brand' | 'competitor';
  name: string;
  mentioned: boolean;
  mentions: number;
  rank: number | null;
  sentiment: 'positive' | 'neutral' | 'negative' | null;
  sentimentScore: number | null;
  visibilityShare: number;
  /** Who decided `sentiment` when it was not the offline model (`judge:<provider>/<model>`); absent: `model:<engineVersion>`. */
  labeller?: string;
}

/** One cited source of one answer (position: 1-based, the answer's order). */
export interface AnalysedCitation {
  url: string;
  domain: string;
  title: string | null;
  position: number;
  owner: 'brand' | 'competitor' | 'other';
  entityId: string | null;
}

export interface AnswerAnalysed {
  type: 'answer.analysed';
  data: AnswerKey & {
    /** When the analysed answer was asked (the day its figures count for). */
    askedAt: string;
    engineVersion: string;
    analysedAt: string;
    entities: AnalysedEntity[];
    citations: AnalysedCitation[];
    /** Checkable claims about the brand and whether they agree with its registered facts (absent in analyses without facts). */
    claims?: FactCheck[];
    /** The sentiment judge's part (absent: never judged): its labels are in `entities`, a fallback kept the offline labels. */
    judge?: { labeller: string; outcome: 'labelled' | 'fallback' };
  };
}

/** One entity's label from the sentiment judge (DESIGN §17). */
export interface JudgeEntityLabel {
  entityId: string;
  sentiment: 'positive' | 'neutral' | 'negative';
  evidence: string;
}

/**
 * The sentiment judge labelled the answer's mentioned entities (`outcome: labelled`), or failed,
 * refused or answered out of format (`outcome: fallback`: the offline labels stand). `usage` is the
 * call's reported tokens (null when the labels came from the cache: nothing was asked).
 */
export interface AnswerJudged {
  type: 'answer.judged';
  data: AnswerKey & {
    labeller: string;
    promptVersion: string;
    /** sha256 of the answer text, the entity names asked, the prompt version and the labeller. */
    cacheKey: string;
    outcome: 'labelled' | 'fallback';
    /** Why the offline labels stand (outcome fallback): the failure kind and message. */
    fallback: { kind: string; reason: string } | null;
    labels: JudgeEntityLabel[];
    /** Entities asked about, and names in the reply that were not asked (ignored). */
    asked: number;
    unknown: number;
    cached: boolean;
    usage: { inputTokens: number | null; outputTokens: number | null } | null;
    judgedAt: string;
  };
}

/** A claim an answer makes about the brand on a registered fact (a contradiction when `agrees` is false). */
export interface FactCheck {
  fact: 'foundedYear' | 'startingPrice' | 'headquarters';
  claimed: string;
  expected: string;
  agrees: boolean;
  sentence: string;
}

export type AnswerEvent = AnswerRecorded | AnswerFailed | AnswerAnalysed | AnswerJudged;

/** Raw provider responses are kept up to this many characters of JSON. */
export const RAW_RESPONSE_LIMIT = 65_536;

export const runStreamId = (runId: number) => `analysis-run-${runId}`;
export const answerStreamId = (runId: number, n: number) => `answer-${runId}-${n}`;
/** The public id of an answer (a result): its run and place. */
export const resultId = (runId: number, n: number) => `${runId}-${n}`;

export const analysisRunEvents = eventDecoder<AnalysisRunEvent>({
  'analysis_run.requested': { runId: 'number', organizationId: 'number', brandId: 'number', trigger: 'string', auditRequestId: 'number?', queries: 'array', providers: 'array', items: 'array', requestedAt: 'string' },
  'analysis_run.started': { runId: 'number', startedAt: 'string' },
  'analysis_run.completed': { runId: 'number', status: 'string', answersRecorded: 'number', answersFailed: 'number', completedAt: 'string' },
});

const KEY = { runId: 'number', n: 'number', organizationId: 'number', brandId: 'number', promptId: 'number?', query: 'string', provider: 'string' } as const;

export const answerEvents = eventDecoder<AnswerEvent>({
  'answer.recorded': { ...KEY, model: 'string', source: 'string', text: 'string', providerCitations: 'array', usage: 'object?', latencyMs: 'number', askedAt: 'string', raw: 'string?' },
  'answer.failed': { ...KEY, reason: 'string', kind: 'string', attempts: 'number', askedAt: 'string', failedAt: 'string' },
  'answer.analysed': { ...KEY, askedAt: 'string', engineVersion: 'string', analysedAt: 'string', entities: 'array', citations: 'array' },
  'answer.judged': { ...KEY, labeller: 'string', promptVersion: 'string', cacheKey: 'string', outcome: 'string', labels: 'array', asked: 'number', unknown: 'number', judgedAt: 'string' },
});

/** The market of an answer or a run item (none when its event predates markets). */
export function marketOfKey(key: { country?: string | null; language?: string | null }): { country: string | null; language: string | null } {
  return { country: key.country ?? null, language: key.language ?? null };
}

/** The market fields an event carries: none when no market is set, so answers without one are recorded as before. */
export function marketFields(key: { country?: string | null; language?: string | null }): { country?: string; language?: string } {
  return { ...(key.country ? { country: key.country } : {}), ...(key.language ? { language: key.language } : {}) };
}

/** A run stream's event, typed; throws on another type or a malformed one. */
export function asAnalysisRunEvent(event: StoredEventLike): AnalysisRunEvent {
  const e = analysisRunEvents.decode(event);
  if (!e) throw new Error(`not an analysis run event: ${event.type}`);
  return e;
}

/** An answer stream's event, typed; throws on another type or a malformed one. */
export function asAnswerEvent(event: StoredEventLike): AnswerEvent {
  const e = answerEvents.decode(event);
  if (!e) throw new Error(`not an answer event: ${event.type}`);
  return e;
}

/** How a run ended, from its answers: every one recorded, none, or some; a run a budget stopped is partial. */
export function runOutcome(recorded: number, failed: number, notAsked = 0): AnalysisRunCompleted['data']['status'] {
  if (notAsked > 0) return 'partial';
  if (failed === 0) return 'completed';
  if (recorded === 0) return 'failed';
  return 'partial';
}
