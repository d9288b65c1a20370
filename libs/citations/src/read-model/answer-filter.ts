import type { AnswerFilter } from '@libs/analysis';

/** Which answers a read is over: analysis's one filter (the brand, its days, provider, prompts). */
export type { AnswerFilter };

/** The filter as SQL over a table with the answer columns ($1-$6; a statement's own parameters start at $7). */
export const ANSWERS_WHERE = `organization_id = $1 AND brand_id = $2 AND day BETWEEN $3::date AND $4::date
  AND ($5::text IS NULL OR provider = $5) AND ($6::bigint[] IS NULL OR prompt_id = ANY($6::bigint[]))`;

export function filterParams(f: AnswerFilter): unknown[] {
  return [f.organizationId, f.brandId, f.start, f.end, f.provider ?? null, f.promptIds ? [...f.promptIds] : null];
}

/** A statement and its parameters (the benchmark's bare server runs the same ones). */
export interface Sql {
  text: string;
  params: unknown[];
}
