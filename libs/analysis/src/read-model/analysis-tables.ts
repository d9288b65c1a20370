import { tableShape } from '@libs/projection-engine';
import type { AnalysedCitation, AnalysedEntity, FactCheck, Provider, RunEndReason, RunStatus, RunTrigger } from '../domain';

/*
 * The analysis read models (projections/analysis builds them; the migrations beside those
 * projectors create them): each table's shape, declared once. The projectors write rows with it,
 * the readers take their column lists and row mappings from it, and a test compares it with the
 * migrations.
 */

/** A row of `analysis_runs`: one run, the record GET /analysis-runs returns. */
export interface AnalysisRunRow {
  id: number;
  organization_id: number;
  client_id: number | null;
  brand_id: number;
  trigger: RunTrigger;
  status: RunStatus;
  queries: string[];
  providers: Provider[];
  answers_expected: number;
  answers_recorded: number;
  answers_failed: number;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  /** `budget_exhausted` when a budget stopped the run asking; null otherwise. */
  reason: RunEndReason | null;
  answers_not_asked: number;
}

export const ANALYSIS_RUNS = tableShape<AnalysisRunRow>({
  table: 'analysis_runs',
  columns: {
    id: 'bigint',
    organization_id: 'bigint',
    client_id: 'bigint',
    brand_id: 'bigint',
    trigger: 'text',
    status: 'text',
    queries: 'jsonb',
    providers: 'text[]',
    answers_expected: 'integer',
    answers_recorded: 'integer',
    answers_failed: 'integer',
    created_at: 'timestamptz',
    started_at: 'timestamptz',
    completed_at: 'timestamptz',
    reason: 'text',
    answers_not_asked: 'integer',
  },
  key: ['id'],
});

/** A row of `analysis_results`: one answer (run and item), its latest analysis in place. */
export interface AnalysisResultRow {
  id: string;
  run_id: number;
  n: number;
  organization_id: number;
  client_id: number | null;
  brand_id: number;
  prompt_id: number | null;
  query: string;
  provider: Provider;
  /** The market asked for (null: the provider's default). */
  country: string | null;
  language: string | null;
  model: string | null;
  source: 'live' | 'recorded' | null;
  status: 'answered' | 'failed';
  answer: string | null;
  error: string | null;
  asked_at: string;
  latency_ms: number | null;
  engine_version: string | null;
  analysed_at: string | null;
  citations: AnalysedCitation[];
  entities: AnalysedEntity[];
  claims: FactCheck[];
}

export const ANALYSIS_RESULTS = tableShape<AnalysisResultRow>({
  table: 'analysis_results',
  columns: {
    id: 'text',
    run_id: 'bigint',
    n: 'integer',
    organization_id: 'bigint',
    client_id: 'bigint',
    brand_id: 'bigint',
    prompt_id: 'bigint',
    query: 'text',
    provider: 'text',
    country: 'text',
    language: 'text',
    model: 'text',
    source: 'text',
    status: 'text',
    answer: 'text',
    error: 'text',
    asked_at: 'timestamptz',
    latency_ms: 'integer',
    engine_version: 'text',
    analysed_at: 'timestamptz',
    citations: 'jsonb',
    entities: 'jsonb',
    claims: 'jsonb',
  },
  key: ['id'],
});

/** What every per-answer row starts with: the answer and its tenant, run, provider and time. */
export interface AnswerRowBase {
  result_id: string;
  organization_id: number;
  client_id: number | null;
  brand_id: number;
  run_id: number;
  provider: string;
  asked_at: string;
  /** The answer's market (null: asked without one). */
  country: string | null;
  language: string | null;
}

/** The columns of AnswerRowBase, for the shapes of per-answer tables (these, and citations' own). */
export const ANSWER_ROW_COLUMNS = {
  result_id: 'text',
  organization_id: 'bigint',
  client_id: 'bigint',
  brand_id: 'bigint',
  run_id: 'bigint',
  provider: 'text',
  asked_at: 'timestamptz',
  country: 'text',
  language: 'text',
} as const;

/** A row of `answer_entities`: one tracked entity in one analysed answer, mentioned or not. */
export interface AnswerEntityRow extends AnswerRowBase {
  entity_id: string;
  kind: string;
  name: string;
  mentioned: boolean;
  mentions: number;
  rank: number | null;
  sentiment: string | null;
  sentiment_score: number | null;
  visibility_share: number;
}

export const ANSWER_ENTITIES = tableShape<AnswerEntityRow>({
  table: 'answer_entities',
  columns: { ...ANSWER_ROW_COLUMNS, entity_id: 'text', kind: 'text', name: 'text', mentioned: 'boolean', mentions: 'integer', rank: 'integer', sentiment: 'text', sentiment_score: 'float8', visibility_share: 'float8' },
  key: ['result_id', 'entity_id'],
});

/** A row of `answer_citations`: one cited URL of one analysed answer, with its owner. */
export interface AnswerCitationRow extends AnswerRowBase {
  position: number;
  url: string;
  domain: string;
  title: string | null;
  owner: string;
  entity_id: string | null;
}

export const ANSWER_CITATIONS = tableShape<AnswerCitationRow>({
  table: 'answer_citations',
  columns: { ...ANSWER_ROW_COLUMNS, position: 'integer', url: 'text', domain: 'text', title: 'text', owner: 'text', entity_id: 'text' },
  key: ['result_id', 'position'],
});

/**
 * A row of `answer_usage`: the tokens of one paid call of one live answer (cost is computed from
 * them when read, DESIGN §17). `call` is `answer` (the question; `provider` and `model` the
 * answer's) or `judge:<cache key>` (a judge call on it; `provider` and `model` those it is billed
 * at, judgeBilling).
 */
export interface AnswerUsageRow extends AnswerRowBase {
  call: string;
  model: string;
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
}

export const ANSWER_USAGE = tableShape<AnswerUsageRow>({
  table: 'answer_usage',
  columns: { ...ANSWER_ROW_COLUMNS, call: 'text', model: 'text', input_tokens: 'integer', cached_input_tokens: 'integer', output_tokens: 'integer' },
  key: ['result_id', 'call'],
});
