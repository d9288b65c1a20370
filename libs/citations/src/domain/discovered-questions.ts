import type { DiscoveryOrigin } from './citation-terms';

/** A question found in an answer: as displayed, its comparison key, and where it was found. */
export interface DiscoveredQuestion {
  question: string;
  key: string;
  origin: DiscoveryOrigin;
}

export const QUESTION_MIN_CHARS = 10;
export const QUESTION_MAX_CHARS = 200;
const MIN_WORDS = 3;
/** A heading that introduces the engine's suggested follow-up questions. */
const FOLLOW_UP_HEADING = /^(related questions|related searches|follow[- ]up questions|you (might|may) also (ask|want to ask|like)|people also ask|further questions)\b/i;

/**
 * The comparison key of a question or prompt: lower case, letters and digits only, single spaces,
 * so "What's the best CRM?" and "whats the best crm" are one candidate.
 */
export function questionKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** A line without its markdown: heading, list and quote markers, emphasis, code ticks. */
function plain(line: string): string {
  return line
    .replace(/^\s*(?:[#>]+\s*|[-*+•]\s+|\d{1,3}[.)]\s+)+/, '')
    .replace(/(\*\*|__|`)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A sentence worth proposing as a prompt: a question of sensible length, no link. */
function candidate(sentence: string): string | null {
  const s = sentence.replace(/^["'“”‘’(\s]+|["'“”‘’)\s]+$/g, '').trim();
  if (!s.endsWith('?')) return null;
  if (s.length < QUESTION_MIN_CHARS || s.length > QUESTION_MAX_CHARS) return null;
  if (/https?:\/\/|www\./i.test(s)) return null;
  if (s.split(/\s+/).length < MIN_WORDS) return null;
  return s.replace(/\?+$/, '?');
}

/** The follow-up questions an engine returned beside its answer (Perplexity's `related_questions`). */
function suggested(raw: string | null): string[] {
  if (raw === null) return [];
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return [];
  }
  if (typeof body !== 'object' || body === null) return [];
  const related = (body as Record<string, unknown>)['related_questions'];
  return Array.isArray(related) ? related.filter((q): q is string => typeof q === 'string') : [];
}

/**
 * Candidate prompts found in one answer (DESIGN §13, prompt discoveries): the follow-up questions
 * the engine suggested (its `related_questions`, or a "Related questions" / "People also ask"
 * section of the text) and the other questions in the answer's text. The prompt that was asked is
 * left out, and each question is kept once per origin. Pure.
 */
export function discoverQuestions(answer: { text: string; raw: string | null; query: string }): DiscoveredQuestion[] {
  const asked = questionKey(answer.query);
  const found = new Map<string, DiscoveredQuestion>();
  const keep = (text: string, origin: DiscoveryOrigin) => {
    // Bounded before any pattern runs on it: a question is short, an answer may be 200,000 characters.
    if (text.length < QUESTION_MIN_CHARS || text.length > 2 * QUESTION_MAX_CHARS) return;
    const line = plain(text);
    const question = candidate(line.endsWith('?') ? line : `${line}?`);
    if (question === null) return;
    const key = questionKey(question);
    if (!key || key === asked || found.has(`${origin}\n${key}`)) return;
    found.set(`${origin}\n${key}`, { question, key, origin });
  };
  for (const q of suggested(answer.raw)) keep(q, 'follow_up');
  let inFollowUps = false;
  for (const raw of answer.text.split(/\r?\n/)) {
    const line = plain(raw);
    if (!line) continue;
    if (FOLLOW_UP_HEADING.test(line.replace(/[:.]+$/, ''))) {
      inFollowUps = true;
      continue;
    }
    const questions = line.split(/(?<=[.!?])\s+/).filter((s) => s.length >= QUESTION_MIN_CHARS && s.trimEnd().endsWith('?'));
    if (inFollowUps && questions.length === 0) inFollowUps = false;
    for (const q of questions) keep(q, inFollowUps ? 'follow_up' : 'answer_text');
  }
  return [...found.values()];
}
