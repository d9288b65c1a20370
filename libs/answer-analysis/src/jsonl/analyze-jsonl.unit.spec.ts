import { PassThrough, Readable } from 'node:stream';
import { analyzeJsonlStream } from './analyze-jsonl';

async function collect(stream: PassThrough): Promise<string> {
  stream.end();
  let out = '';
  for await (const chunk of stream) out += String(chunk);
  return out;
}

describe('analyzeJsonlStream', () => {
  it('writes one line of labels per answer and reports bad lines', async () => {
    const good = { id: 'a1', answer: '1. **Alphasoft** – excellent\n2. **Bravosoft** – avoid: expensive and buggy. https://alphasoft.com/x/?utm_source=y', entities: [{ id: 'brand', kind: 'brand', name: 'Alphasoft', aliases: [], domains: ['alphasoft.com'] }, { id: 'c1', kind: 'competitor', name: 'Bravosoft', aliases: [], domains: [] }], providerCitations: [] };
    const input = Readable.from([`${JSON.stringify(good)}\n`, 'not json\n', '\n', '{"id":"a2","answer":"x","entities":[{"id":"b","kind":"brand","name":"X"},{"id":"b","kind":"brand","name":"Y"}]}\n']);
    const output = new PassThrough();
    const errors = new PassThrough();
    const summary = await analyzeJsonlStream(input, output, errors);
    expect(summary).toEqual({ lines: 3, errors: 2 });
    const lines = (await collect(output)).trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toEqual({
      id: 'a1',
      mentions: { brand: 1, c1: 1 },
      order: ['brand', 'c1'],
      citations: [{ url: 'https://alphasoft.com/x', domain: 'alphasoft.com' }],
      sentiment: { brand: 'positive', c1: 'negative' },
    });
    const errorText = await collect(errors);
    expect(errorText).toContain('line 2: CorpusLineError: not valid JSON');
    expect(errorText).toContain('line 4: InvalidEntitiesError: duplicate entity id "b"');
  });
});
