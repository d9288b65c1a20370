import type { ApiError } from './api-error';
import { jsonArrayElements, jsonSizeProblem, NotJsonArray } from './json-body';

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

describe('jsonArrayElements', () => {
  const elements = (text: string, budget = 1000) => [...jsonArrayElements(text, budget)];

  it('gives each element of an array as its own text, whatever the spacing, strings and nesting', () => {
    const value = [{ a: 1, b: 'x,]}"\\' }, [1, [2, { c: null }]], 'plain', 3.5e2, true, null, {}];
    expect(elements(JSON.stringify(value)).map((e) => JSON.parse(e))).toEqual(value);
    expect(elements(' \n[ {"a" : [ 1 , 2 ] } ,\t"b" ]\r\n').map((e) => JSON.parse(e))).toEqual([{ a: [1, 2] }, 'b']);
    expect(elements('[]')).toEqual([]);
    expect(elements(' [ ] ')).toEqual([]);
  });

  it.each(['{"a":[1]}', '"text"', '[1,2', '[1,2]x', '[{"a":1]', '[1}', '["open]', ''])('throws NotJsonArray for %j', (text) => {
    expect(() => elements(text)).toThrow(NotJsonArray);
  });

  it('leaves what is inside an element to JSON.parse: an empty element is an empty text', () => {
    expect(elements('[1,,2]')).toEqual(['1', '', '2']);
    expect(() => JSON.parse(elements('[1,]')[1])).toThrow();
  });

  it('refuses nesting deeper than MAX_INPUT_DEPTH and more members than the budget, as it scans', () => {
    const refusal = (text: string, budget = 1000) => {
      try {
        elements(text, budget);
      } catch (error) {
        return (error as ApiError).details;
      }
      return null;
    };
    expect(refusal(`[${'['.repeat(64)}${']'.repeat(64)}]`)).toEqual({ fields: [{ field: 'body', message: 'body is nested more than 64 levels deep' }] });
    expect(elements(`[${'['.repeat(62)}${']'.repeat(62)}]`)).toHaveLength(1);
    expect(refusal(JSON.stringify(Array.from({ length: 6 }, (_, i) => ({ i }))), 11)).toEqual({ fields: [{ field: 'body', message: 'body holds more than 11 keys and array elements' }] });
    expect(elements(JSON.stringify(Array.from({ length: 6 }, (_, i) => ({ i }))), 12)).toHaveLength(6);
  });

  it('is lazy: a caller can stop (or pause) between elements', () => {
    const it = jsonArrayElements('[1,2,oops', 10);
    expect(it.next().value).toBe('1');
    expect(it.next().value).toBe('2');
    expect(() => it.next()).toThrow(NotJsonArray);
  });
});
