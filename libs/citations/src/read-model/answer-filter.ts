import { ANSWER_FILTER_WHERE, answerFilterParams, type AnswerFilter } from '@libs/analysis';

/** Which answers a read is over: analysis's one filter (the brand, its days, provider, prompts, market). */
export type { AnswerFilter };

/** The filter as SQL over a table with the answer columns ($1-$8; a statement's own parameters start at $9). */
export const ANSWERS_WHERE = ANSWER_FILTER_WHERE;

export const filterParams = answerFilterParams;

/** A statement and its parameters (the benchmark's bare server runs the same ones). */
export interface Sql {
  text: string;
  params: unknown[];
}
