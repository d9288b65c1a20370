import { addDays, isDayKey, type DayKey } from '@libs/metrics';
import { METRIC_FIELDS, type MetricFigures, type MetricRow } from './daily-rows';

/** The columns an import may have: `date` (required), the row's brand (`brandId` or `domain`), and the figures. */
export const IMPORT_COLUMNS = ['date', 'brandId', 'domain', ...METRIC_FIELDS] as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number];

/** Figures that may have decimals; the others are counts. */
const DECIMAL: ReadonlySet<string> = new Set(['conversions', 'revenue']);
const MAX_FIGURE = 1e15;
const INTEGER_TEXT = /^[0-9]{1,16}$/;
const DECIMAL_TEXT = /^[0-9]{1,16}(\.[0-9]{1,6})?$/;

/** The first day an import may carry: older figures have no use here (AI answer engines are from 2022; GA and Search Console from 2005-2006). */
export const FIRST_IMPORT_DAY: DayKey = '2000-01-01';

/**
 * The days an import's rows may carry when it is `today` (UTC): from FIRST_IMPORT_DAY to tomorrow,
 * so a day that has begun anywhere on Earth (UTC+14) is taken and a typo such as 9999 or 1900 is not.
 */
export function importDays(today: DayKey): { first: DayKey; last: DayKey } {
  return { first: FIRST_IMPORT_DAY, last: addDays(today, 1) };
}

export interface RowProblem {
  /** The line of the file (CSV: the header is line 1). */
  line: number;
  field: string;
  message: string;
}

/** Problems with a file's columns (CSV header, or an NDJSON line's keys): unknown ones, no date, no figure. */
export function headerProblems(columns: readonly string[]): string[] {
  const problems: string[] = [];
  const known = new Set<string>(IMPORT_COLUMNS);
  for (const c of columns) if (!known.has(c)) problems.push(`unknown column "${c}"; the columns are ${IMPORT_COLUMNS.join(', ')}`);
  const seen = new Set<string>();
  for (const c of columns) {
    if (seen.has(c)) problems.push(`column "${c}" appears twice`);
    seen.add(c);
  }
  if (!columns.includes('date')) problems.push('the date column is missing');
  if (!columns.some((c) => (METRIC_FIELDS as readonly string[]).includes(c))) problems.push(`no figure column (one of ${METRIC_FIELDS.join(', ')})`);
  if (columns.includes('brandId') && columns.includes('domain')) problems.push('give brandId or domain, not both');
  return problems;
}

function figure(field: string, value: unknown): { value: number | null; problem?: string } {
  if (value === null || value === undefined || value === '') return { value: null };
  const decimal = DECIMAL.has(field);
  const kind = decimal ? 'a non-negative number' : 'a non-negative integer';
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string') {
    const text = value.trim();
    if (text.startsWith('-')) return { value: null, problem: `${field} must be ${kind}, not negative` };
    if (!(decimal ? DECIMAL_TEXT : INTEGER_TEXT).test(text)) return { value: null, problem: `${field} must be ${kind}` };
    n = Number(text);
  } else return { value: null, problem: `${field} must be ${kind}` };
  if (!Number.isFinite(n)) return { value: null, problem: `${field} must be ${kind}` };
  if (n < 0) return { value: null, problem: `${field} must be ${kind}, not negative` };
  if (!decimal && !Number.isInteger(n)) return { value: null, problem: `${field} must be ${kind}` };
  if (n > MAX_FIGURE) return { value: null, problem: `${field} must be at most ${MAX_FIGURE}` };
  return { value: n };
}

/**
 * One record of an import (CSV cells as text, NDJSON values as JSON) checked and turned into a
 * metric row; `problems` names each bad field. The date must fall within `days` (importDays). The
 * brand is left as given (brandId or domain): which brands exist is the use case's to check.
 */
export function importRow(record: Readonly<Record<string, unknown>>, line: number, days: { first: DayKey; last: DayKey }): { row: MetricRow | null; problems: RowProblem[] } {
  const problems: RowProblem[] = [];
  const bad = (field: string, message: string) => problems.push({ line, field, message });
  const date = record.date;
  if (typeof date !== 'string' || !isDayKey(date)) bad('date', 'date must be a calendar date YYYY-MM-DD');
  else if (date < days.first || date > days.last) bad('date', `date must be from ${days.first} to ${days.last}`);
  let brandId: number | null = null;
  if (record.brandId !== undefined && record.brandId !== null && record.brandId !== '') {
    const v = record.brandId;
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^[0-9]{1,15}$/.test(v) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n) || n < 1) bad('brandId', 'brandId must be a positive integer');
    else brandId = n;
  }
  let domain: string | null = null;
  if (record.domain !== undefined && record.domain !== null && record.domain !== '') {
    if (typeof record.domain !== 'string' || record.domain.length > 253) bad('domain', 'domain must be a host name of at most 253 characters');
    else domain = record.domain;
  }
  const figures = {} as MetricFigures;
  for (const field of METRIC_FIELDS) {
    const f = figure(field, record[field]);
    if (f.problem) bad(field, f.problem);
    figures[field] = f.value;
  }
  if (!problems.length && METRIC_FIELDS.every((f) => figures[f] === null)) bad('row', 'the row has no figure');
  if (problems.length) return { row: null, problems };
  return { row: { date: date as string, brandId, domain, ...figures }, problems };
}
