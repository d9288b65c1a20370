import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sentimentFigures } from './score-labels';
import { TUNED_VERTICALS, devVertical } from './verticals';

const DIR = join(__dirname, 'corpus');

describe('the held-out corpus', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.jsonl'));
  const lines = files.flatMap((f) => readFileSync(join(DIR, f), 'utf8').split('\n').filter(Boolean).map((l) => ({ vertical: f.replace('.jsonl', ''), ...JSON.parse(l) })));

  it('holds at least 200 answers in at least eight verticals the rules were not tuned on', () => {
    expect(lines.length).toBeGreaterThanOrEqual(200);
    expect(files.length).toBeGreaterThanOrEqual(8);
    for (const f of files) expect(TUNED_VERTICALS.has(f.replace('.jsonl', ''))).toBe(false);
  });

  it('is well formed: unique ids, every entity counted, one sentiment for each mentioned entity, order = the mentioned ones', () => {
    expect(new Set(lines.map((l) => l.id)).size).toBe(lines.length);
    for (const l of lines) {
      const ids = l.entities.map((e: { id: string }) => e.id);
      expect(Object.keys(l.labels.mentions).sort()).toEqual([...ids].sort());
      const mentioned = ids.filter((id: string) => l.labels.mentions[id] > 0).sort();
      expect({ id: l.id, sentiment: Object.keys(l.labels.sentiment).sort() }).toEqual({ id: l.id, sentiment: mentioned });
      expect([...l.labels.order].sort()).toEqual(mentioned);
      for (const s of Object.values(l.labels.sentiment)) expect(['positive', 'neutral', 'negative']).toContain(s);
    }
  });
});

describe('evaluation maths', () => {
  it('places dev answers in their verticals', () => {
    expect([devVertical('d001'), devVertical('d017'), devVertical('d052'), devVertical('d062'), devVertical('x1')]).toEqual(['crm', 'coffee-machines', 'project-management', 'banking', null]);
  });

  it('gives accuracy, macro-F1 and per-class recall and precision, each with its n', () => {
    const f = sentimentFigures([
      { expected: 'positive', predicted: 'positive' },
      { expected: 'positive', predicted: 'neutral' },
      { expected: 'neutral', predicted: 'neutral' },
      { expected: 'negative', predicted: null },
    ]);
    expect(f.n).toBe(4);
    expect(f.accuracy).toBe(0.5);
    expect(f.recall).toEqual({ positive: { n: 2, recall: 0.5 }, neutral: { n: 1, recall: 1 }, negative: { n: 1, recall: 0 } });
    expect(f.precision).toEqual({ positive: { n: 1, precision: 1 }, neutral: { n: 2, precision: 0.5 }, negative: { n: 0, precision: null } });
  });
});
