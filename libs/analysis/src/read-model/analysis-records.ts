import { columnList, rowReader } from '@libs/projection-engine';
import type { AnalysedCitation, AnalysedEntity, FactCheck, Provider, RunEndReason, RunStatus, RunTrigger } from '../domain';
import { ANALYSIS_RESULTS, ANALYSIS_RUNS, type AnalysisRunRow } from './analysis-tables';

/** The run record of DESIGN §13.1. */
export interface AnalysisRunRecord {
  id: number;
  brandId: number;
  trigger: RunTrigger;
  status: RunStatus;
  queries: string[];
  providers: Provider[];
  answersExpected: number;
  answersRecorded: number;
  answersFailed: number;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
  /** `budget_exhausted` when a budget stopped the run asking (its status is then partial); else null. */
  reason: RunEndReason | null;
  /** Questions not asked because a budget would have been exceeded (counted in answersFailed). */
  answersNotAsked: number;
}

/** The result record of DESIGN §13.1: one answer of one provider to one query. */
export interface AnalysisResultRecord {
  id: string;
  runId: number;
  brandId: number;
  promptId: number | null;
  query: string;
  provider: Provider;
  /** The market the answer was asked for (null: the provider's default). */
  country: string | null;
  language: string | null;
  model: string | null;
  source: 'live' | 'recorded' | null;
  status: 'answered' | 'failed';
  answer: string | null;
  citations: AnalysedCitation[];
  /** Each entity with who decided its label (null: no label). */
  entities: (Omit<AnalysedEntity, 'labeller'> & { labeller: string | null })[];
  /** Claims about the brand checked against its registered facts (agrees false: a contradiction). */
  claims: FactCheck[];
  engineVersion: string | null;
  error: string | null;
  askedAt: string;
  latencyMs: number | null;
}

/** The columns a run record is made of, and their mapping (from the table's shape). */
const RUN_RECORD = ['id', 'brand_id', 'trigger', 'status', 'queries', 'providers', 'answers_expected', 'answers_recorded', 'answers_failed', 'created_at', 'started_at', 'completed_at', 'reason', 'answers_not_asked'] as const;
const runRow = rowReader(ANALYSIS_RUNS, RUN_RECORD);
export const RUN_COLUMNS = columnList(ANALYSIS_RUNS, RUN_RECORD);

/** The columns a result record is made of, and their mapping (from the table's shape). */
const RESULT_RECORD = ['id', 'run_id', 'brand_id', 'prompt_id', 'query', 'provider', 'country', 'language', 'model', 'source', 'status', 'answer', 'citations', 'entities', 'claims', 'engine_version', 'error', 'asked_at', 'latency_ms'] as const;
const resultRow = rowReader(ANALYSIS_RESULTS, RESULT_RECORD);
export const RESULT_COLUMNS = columnList(ANALYSIS_RESULTS, RESULT_RECORD);

/** A run record from a row read with RUN_COLUMNS. */
export function toRun(r: Record<string, unknown>): AnalysisRunRecord {
  return runRecordOf(runRow(r));
}

/** The run record of a run row (as the projector holds it, or as read). */
export function runRecordOf(row: Pick<AnalysisRunRow, (typeof RUN_RECORD)[number]>): AnalysisRunRecord {
  return {
    id: row.id,
    brandId: row.brand_id,
    trigger: row.trigger,
    status: row.status,
    queries: row.queries,
    providers: row.providers,
    answersExpected: row.answers_expected,
    answersRecorded: row.answers_recorded,
    answersFailed: row.answers_failed,
    createdAt: row.created_at,
    startedAt: row.started_at,
    completedAt: row.completed_at,
    reason: row.reason,
    answersNotAsked: row.answers_not_asked,
  };
}

/** A result record from a row read with RESULT_COLUMNS. */
export function toResult(r: Record<string, unknown>): AnalysisResultRecord {
  const row = resultRow(r);
  return {
    id: row.id,
    runId: row.run_id,
    brandId: row.brand_id,
    promptId: row.prompt_id,
    query: row.query,
    provider: row.provider,
    country: row.country,
    language: row.language,
    model: row.model,
    source: row.source,
    status: row.status,
    answer: row.answer,
    citations: row.citations,
    // Who decided each label (issue 32): the judge where it labelled the entity, else the offline model of the analysis.
    entities: row.entities.map((e) => ({ ...e, labeller: e.labeller ?? (e.sentiment === null ? null : `model:${row.engine_version ?? 'unknown'}`) })),
    claims: row.claims ?? [],
    engineVersion: row.engine_version,
    error: row.error,
    askedAt: row.asked_at,
    latencyMs: row.latency_ms,
  };
}

/** Tenant filter of the read models: the organisation, and the client of a client-bound credential ($1, $2). */
export const TENANT = 'organization_id = $1 AND ($2::bigint IS NULL OR client_id = $2)';
