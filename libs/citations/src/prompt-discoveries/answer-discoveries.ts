import { Injectable } from '@nestjs/common';
import { ANSWERS_WHERE, filterParams, type AnswerFilter, type Sql } from '../read-model/answer-filter';
import { Reads } from '../read-model/reads';
import type { DiscoveryCandidate, DiscoverySource } from './discovery-source';

/** Questions found in the brand's answers over the period, other than the excluded keys (tracked prompts), most answers first. */
export function answerDiscoveriesSql(f: AnswerFilter, excludedKeys: readonly string[], limit: number): Sql {
  return {
    text: `SELECT question_key, (array_agg(question ORDER BY asked_at DESC, result_id))[1] AS question, count(*)::int AS occurrences, count(DISTINCT result_id)::int AS answers,
                  count(*) FILTER (WHERE origin = 'follow_up')::int AS follow_up, count(*) FILTER (WHERE origin = 'answer_text')::int AS answer_text,
                  array_agg(DISTINCT provider ORDER BY provider) AS providers, (array_agg(DISTINCT query ORDER BY query))[1:3] AS prompts,
                  min(asked_at) AS first_seen, max(asked_at) AS last_seen
             FROM prompt_discoveries WHERE ${ANSWERS_WHERE} AND question_key <> ALL($9::text[])
            GROUP BY question_key ORDER BY answers DESC, occurrences DESC, question_key LIMIT $10`,
    params: [...filterParams(f), [...excludedKeys], limit],
  };
}

interface Row {
  question_key: string;
  question: string;
  occurrences: number;
  answers: number;
  follow_up: number;
  answer_text: number;
  providers: string[];
  prompts: string[];
  first_seen: Date;
  last_seen: Date;
}

/** Candidate prompts from analysed answers (`prompt_discoveries`): follow-up questions the engines suggested and questions in their text. */
@Injectable()
export class AnswerDiscoveries implements DiscoverySource {
  constructor(private readonly reads: Reads) {}

  async candidates(filter: AnswerFilter, excludedKeys: readonly string[], limit: number): Promise<DiscoveryCandidate[]> {
    const rows = await this.reads.rows<Row>(answerDiscoveriesSql(filter, excludedKeys, limit));
    return rows.map((r) => ({
      key: r.question_key,
      question: r.question,
      origins: [
        { origin: 'follow_up', occurrences: r.follow_up },
        { origin: 'answer_text', occurrences: r.answer_text },
      ].filter((o) => o.occurrences > 0),
      answers: r.answers,
      providers: r.providers,
      prompts: r.prompts,
      firstSeen: r.first_seen.toISOString(),
      lastSeen: r.last_seen.toISOString(),
    }));
  }
}
