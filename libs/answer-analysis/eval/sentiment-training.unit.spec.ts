import { existsSync } from 'node:fs';
import { createAnalyzer, parseCorpusLine } from '../src/index';
import { compileModel, FEATURE_COUNT, SENTIMENT_FEATURES } from '../src/sentiment/sentiment-model';
import { DEFAULT_SENTIMENT_MODEL } from '../src/sentiment/trained-model';
import { corpusFiles, corpusLines, DEFAULT_CORPORA } from './corpus-files';
import { collectSamples, leaveOneVerticalOut, predictSample, SentimentSample, trainModel, TRAINING } from './sentiment-training';

function sample(vertical: string, score: number, expected: SentimentSample['expected'], k: number): SentimentSample {
  const features = new Float64Array(FEATURE_COUNT);
  features[0] = score;
  features[1] = (k % 5) / 10;
  return { id: `${vertical}${k}`, vertical, entityId: 'e', expected, features, words: new Map([[k % 7, 1]]), wordWeight: 1 };
}

describe('sentiment training', () => {
  it('labels each vertical with a model that never saw it', () => {
    // In verticals b, c and d a high score means negative; in a it means positive. A model that had seen a would get
    // some of a right; one that had not gets all of a wrong (and b right: the others outvote a).
    const samples: SentimentSample[] = [];
    for (let k = 0; k < 30; k++) {
      samples.push(sample('a', k % 2 ? 1 : -1, k % 2 ? 'positive' : 'negative', k));
      samples.push(sample('b', k % 2 ? 1 : -1, k % 2 ? 'negative' : 'positive', k));
      samples.push(sample('c', k % 2 ? 1 : -1, k % 2 ? 'negative' : 'positive', k));
      samples.push(sample('d', k % 2 ? 1 : -1, k % 2 ? 'negative' : 'positive', k));
    }
    const results = leaveOneVerticalOut(samples, TRAINING);
    const a = results.filter((r) => r.vertical === 'a');
    expect(a).toHaveLength(30);
    expect(a.every((r) => r.predicted !== r.expected)).toBe(true);
    expect(results.filter((r) => r.vertical === 'b').every((r) => r.predicted === r.expected)).toBe(true);
  });

  it('keeps a null prediction for an entity the engine did not find', () => {
    const samples = [...Array.from({ length: 10 }, (_, k) => sample('a', 1, 'positive', k)), ...Array.from({ length: 10 }, (_, k) => sample('b', -1, 'negative', k))];
    samples.push({ id: 'x', vertical: 'b', entityId: 'e', expected: 'neutral', features: null, words: null, wordWeight: 0 });
    expect(leaveOneVerticalOut(samples, TRAINING).find((r) => r.id === 'x')?.predicted).toBeNull();
  });

  it('refuses a model trained on other features', () => {
    const model = trainModel([sample('a', 1, 'positive', 1), sample('a', -1, 'negative', 2)]);
    expect(() => compileModel({ ...model, features: [...SENTIMENT_FEATURES].reverse() })).toThrow(/other features/);
    expect(() => compileModel({ ...model, words: [[1 << 20, 1, 0, 0]] })).toThrow(/out of range/);
    expect(() => createAnalyzer([{ id: 'b', kind: 'brand', name: 'Acme' }], { sentimentModel: { ...model, mean: [1] } })).toThrow(/mean and scale/);
  });

  const corpora = corpusFiles(DEFAULT_CORPORA);
  const haveDevCorpus = existsSync(DEFAULT_CORPORA[0]);
  (haveDevCorpus ? describe : describe.skip)('on the labelled corpora', () => {
    const lines = corpusLines(corpora);
    const samples = collectSamples(lines);

    it('ships the model that training on the committed corpora produces (npm run train:sentiment)', () => {
      expect(trainModel(samples, TRAINING)).toEqual(DEFAULT_SENTIMENT_MODEL);
    });

    it('labels at run time exactly as training and evaluation predict', () => {
      const compiled = compileModel(DEFAULT_SENTIMENT_MODEL!);
      const runtime = new Map<string, string | null>();
      for (const { line } of lines) {
        const { id, input } = parseCorpusLine(line);
        for (const e of createAnalyzer(input.entities).analyze(input).entities) runtime.set(`${id}/${e.entityId}`, e.sentiment?.label ?? null);
      }
      const differ = samples.filter((s) => s.features !== null && runtime.get(`${s.id}/${s.entityId}`) !== predictSample(compiled, s));
      expect(differ.map((s) => `${s.id}/${s.entityId}`)).toEqual([]);
    });
  });
});
