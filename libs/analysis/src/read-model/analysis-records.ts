import type { AnalysedCitation, AnalysedEntity, FactCheck, Provider, RunStatus, RunTrigger } from '../domain';

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
}

/** The result record of DESIGN §13.1: one answer of one provider to one query. */
export interface AnalysisResultRecord {
  id: string;
  runId: number;
  brandId: number;
  promptId: number | null;
  query: string;
  provider: Provider;
  model: string | null;
  source: 'live' | 'recorded' | null;
  status: 'answered' | 'failed';
  answer: string | null;
  citations: AnalysedCitation[];
  entities: AnalysedEntity[];
  /** Claims about the brand checked against its registered facts (agrees false: a contradiction). */
  claims: FactCheck[];
  engineVersion: string | null;
  error: string | null;
  askedAt: string;
  latencyMs: number | null;
}

type Row = Record<string, unknown>;
const iso = (v: unknown) => (v === null ? null : (v as Date).toISOString());

export const RUN_COLUMNS = 'id, brand_id, trigger, status, queries, providers, answers_expected, answers_recorded, answers_failed, created_at, started_at, completed_at';
export const RESULT_COLUMNS = 'id, run_id, brand_id, prompt_id, query, provider, model, source, status, answer, citations, entities, claims, engine_version, error, asked_at, latency_ms';

export const toRun = (r: Row): AnalysisRunRecord => ({
  id: Number(r.id),
  brandId: Number(r.brand_id),
  trigger: r.trigger as RunTrigger,
  status: r.status as RunStatus,
  queries: r.queries as string[],
  providers: r.providers as Provider[],
  answersExpected: r.answers_expected as number,
  answersRecorded: r.answers_recorded as number,
  answersFailed: r.answers_failed as number,
  createdAt: iso(r.created_at)!,
  startedAt: iso(r.started_at),
  completedAt: iso(r.completed_at),
});

export const toResult = (r: Row): AnalysisResultRecord => ({
  id: r.id as string,
  runId: Number(r.run_id),
  brandId: Number(r.brand_id),
  promptId: r.prompt_id === null ? null : Number(r.prompt_id),
  query: r.query as string,
  provider: r.provider as Provider,
  model: (r.model as string | null) ?? null,
  source: (r.source as 'live' | 'recorded' | null) ?? null,
  status: r.status as 'answered' | 'failed',
  answer: (r.answer as string | null) ?? null,
  citations: r.citations as AnalysedCitation[],
  entities: r.entities as AnalysedEntity[],
  claims: (r.claims as FactCheck[] | undefined) ?? [],
  engineVersion: (r.engine_version as string | null) ?? null,
  error: (r.error as string | null) ?? null,
  askedAt: iso(r.asked_at)!,
  latencyMs: r.latency_ms === null ? null : Number(r.latency_ms),
});

/** Tenant filter of the read models: the organisation, and the client of a client-bound credential ($1, $2). */
export const TENANT = 'organization_id = $1 AND ($2::bigint IS NULL OR client_id = $2)';
