import { jsonSizeProblem } from './json-body';

describe('jsonSizeProblem', () => {
  it('counts keys and array elements at every level, not separators inside strings', () => {
    expect(jsonSizeProblem('{"a":1,"b":[1,2,3],"c":{"d":"x,y:z"}}', 7)).toBeNull(); // a b c d + 3 elements
    expect(jsonSizeProblem('{"a":1,"b":[1,2,3],"c":{"d":"x,y:z"}}', 6)).toEqual({ field: 'body', message: 'body holds more than 6 keys and array elements' });
    expect(jsonSizeProblem('["\\"[,,,:"]', 1)).toBeNull(); // one string element holding separators and an escaped quote
    expect(jsonSizeProblem('[[],[],{}]', 3)).toBeNull();
    expect(jsonSizeProblem('[[],[],{}]', 2)).not.toBeNull();
    expect(jsonSizeProblem(' [ ] ', 0)).toBeNull();
  });

  it('refuses nesting deeper than 64 levels before counting members', () => {
    expect(jsonSizeProblem('['.repeat(64) + ']'.repeat(64), 1000)).toBeNull();
    expect(jsonSizeProblem('['.repeat(100_000) + ']'.repeat(100_000), 1000)?.message).toBe('body is nested more than 64 levels deep');
  });

  it('stops at the first excess: a huge body costs the budget, not its size', () => {
    const huge = `{${Array.from({ length: 200_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`;
    const started = process.hrtime.bigint();
    for (let i = 0; i < 100; i++) expect(jsonSizeProblem(huge, 1000)).not.toBeNull();
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(500); // 100 scans of ~13 KB each
  });
});
