import { isProvider, isSchedule, MAX_QUERY_LENGTH, normaliseQuery, normaliseTags, queryProblem, tagsProblem } from './index';

describe('tracked prompt rules', () => {
  it('tidies white space in a query and bounds its length after tidying', () => {
    expect(normaliseQuery('  best\\tCRM \n\n for  agencies ')).toBe('best\\tCRM for agencies');
    expect(normaliseQuery(' a\t\tb ')).toBe('a b');
    expect(queryProblem('ok')).toBeNull();
    expect(queryProblem(`  ${'x'.repeat(MAX_QUERY_LENGTH)}  `)).toBeNull();
    expect(queryProblem('x'.repeat(MAX_QUERY_LENGTH + 1))).toMatch(/at most 1000/);
    expect(queryProblem(' \n ')).toMatch(/empty/);
    expect(queryProblem(7)).toMatch(/string/);
    expect(queryProblem('a\u0000b')).toMatch(/control/);
  });

  it('keeps tags distinct and bounded', () => {
    expect(normaliseTags([' a', 'a ', 'b'])).toEqual(['a', 'b']);
    expect(tagsProblem(['a', 'b'])).toBeNull();
    expect(tagsProblem(Array.from({ length: 21 }, (_, k) => String(k)))).toMatch(/at most 20/);
    expect(tagsProblem([' '])).toMatch(/1 to 50/);
    expect(tagsProblem(['x'.repeat(51)])).toMatch(/1 to 50/);
    expect(tagsProblem([1])).toMatch(/strings/);
    expect(tagsProblem('a')).toMatch(/array/);
  });

  it('knows the providers and schedules', () => {
    expect(['chatgpt', 'claude', 'gemini', 'perplexity'].every(isProvider)).toBe(true);
    expect(isProvider('bing')).toBe(false);
    expect(isProvider('constructor')).toBe(false);
    expect(['daily', 'weekly', 'off'].every(isSchedule)).toBe(true);
    expect(isSchedule('hourly')).toBe(false);
  });
});
