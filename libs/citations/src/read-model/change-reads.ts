import { columnList } from '@libs/projection-engine';
import { ANSWERS_WHERE, filterParams, type AnswerFilter, type Sql } from './answer-filter';
import { ANSWER_CHANGES } from './change-record';

const CHANGE_COLUMNS = columnList(ANSWER_CHANGES);

/** A page of the brand's changes in the period, newest (or as sorted) first, with the total (rows for `changeRowFromSql`). */
export function changePageSql(f: AnswerFilter, q: { types?: readonly string[]; severities?: readonly string[]; column: string; order: 'asc' | 'desc'; limit: number; offset: number }): Sql {
  const dir = q.order === 'asc' ? 'ASC' : 'DESC';
  return {
    text: `SELECT ${CHANGE_COLUMNS}, count(*) OVER ()::int AS total FROM ${ANSWER_CHANGES.table}
            WHERE ${ANSWERS_WHERE} AND ($9::text[] IS NULL OR change_type = ANY($9::text[])) AND ($10::text[] IS NULL OR severity = ANY($10::text[]))
            ORDER BY ${q.column} ${dir}${q.column === 'asked_at' ? '' : `, asked_at ${dir}`}, id ${dir} LIMIT $11 OFFSET $12`,
    params: [...filterParams(f), q.types ? [...q.types] : null, q.severities ? [...q.severities] : null, q.limit, q.offset],
  };
}

/** The brand's changes in the period counted by type and severity. */
export function changeCountsSql(f: AnswerFilter): Sql {
  return { text: `SELECT change_type, severity, count(*)::int AS changes FROM answer_changes WHERE ${ANSWERS_WHERE} GROUP BY change_type, severity`, params: filterParams(f) };
}
