import { collectCitations } from './citations/collect-citations';
import { prepareEntities, PreparedEntity } from './entities/prepare-entities';
import { InvalidAnswerInputError } from './errors';
import { renderMarkdown } from './markdown/render-markdown';
import { findMentions, FoundMention } from './mentions/find-mentions';
import { lowerForMatching, NameMatcher } from './mentions/name-matcher';
import { findOptionUnits, OptionUnit } from './ranking/option-units';
import { rankEntities, selectOptionStructures } from './ranking/rank-entities';
import { Sentence, splitSentences } from './sentences/split-sentences';
import { scoreEntitySentiment } from './sentiment/score-entity-sentiment';
import { CompiledSentimentModel, compileModel, SentimentModel } from './sentiment/sentiment-model';
import { DEFAULT_SENTIMENT_MODEL } from './sentiment/trained-model';
import { ScannedText, scanText } from './text/scan-text';
import { AnswerAnalysis, AnswerInput, EntityAnalysis, MentionOccurrence, ProviderCitation, TrackedEntity } from './types';
import { positionAdjustedWordCountShares, SentenceCredit } from './visibility/position-adjusted-word-count';

/** The answer and citations of one analysis; the entities are the analyzer's. */
export interface AnswerText {
  readonly answer: string;
  readonly providerCitations?: readonly ProviderCitation[];
}

/** An entity set compiled once (names matcher, domains), analysing any number of answers about it. */
/** How an analyzer labels sentiment (defaults: the trained model shipped with the library). */
export interface AnalyzerOptions {
  /** The model that labels each entity's sentiment from its features; null: the lexicon thresholds alone. */
  readonly sentimentModel?: SentimentModel | null;
  /** Receives each scored entity's sentiment features (training and evaluation tools). */
  readonly onSentimentFeatures?: (entityId: string, features: Float64Array, words: ReadonlyMap<number, number>, wordWeight: number) => void;
}

export interface AnswerAnalyzer {
  analyze(input: AnswerText): AnswerAnalysis;
}

function checkInput(input: unknown): { answer: string; providerCitations: readonly ProviderCitation[] } {
  if (typeof input !== 'object' || input === null) throw new InvalidAnswerInputError('input must be an object');
  const { answer, providerCitations } = input as Record<string, unknown>;
  if (typeof answer !== 'string') throw new InvalidAnswerInputError('answer must be a string');
  if (providerCitations !== undefined && providerCitations !== null && !Array.isArray(providerCitations)) {
    throw new InvalidAnswerInputError('providerCitations must be a list');
  }
  return { answer, providerCitations: (providerCitations ?? []) as readonly ProviderCitation[] };
}

/** The innermost unit holding a position, among units sorted by start (units nest or are disjoint). */
function unitAt(units: readonly OptionUnit[], pos: number): number {
  let lo = 0;
  let hi = units.length - 1;
  let best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (units[mid].start <= pos) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  for (let k = best; k >= 0 && k >= best - 8; k--) if (units[k].end > pos) return k;
  return -1;
}

/** The entity an answer is mostly about: at least half of all mentions, three or more, and three times as many as any other; else -1. */
function dominantEntity(mentions: readonly FoundMention[], entityCount: number): number {
  if (mentions.length < 3) return -1;
  const counts = new Array<number>(entityCount).fill(0);
  for (const m of mentions) counts[m.entityIndex]++;
  let best = 0;
  for (let e = 1; e < entityCount; e++) if (counts[e] > counts[best]) best = e;
  let second = 0;
  for (let e = 0; e < entityCount; e++) if (e !== best && counts[e] > second) second = counts[e];
  return counts[best] >= 3 && counts[best] * 2 >= mentions.length && counts[best] >= second * 3 ? best : -1;
}

/** The sentence holding a position (sentences sorted by start), or -1. */
function sentenceOf(sentences: readonly Sentence[], pos: number): number {
  let lo = 0;
  let hi = sentences.length - 1;
  let best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (sentences[mid].start <= pos) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best >= 0 && pos <= sentences[best].end ? best : -1;
}

let compiledDefault: CompiledSentimentModel | null | undefined;
/** The shipped sentiment model, compiled once (null when the library ships none). */
function defaultModel(): CompiledSentimentModel | null {
  if (compiledDefault === undefined) compiledDefault = DEFAULT_SENTIMENT_MODEL === null ? null : compileModel(DEFAULT_SENTIMENT_MODEL);
  return compiledDefault;
}

/** The credit list of a sentence about no entity (shared, never written). */
const NOBODY: readonly number[] = Object.freeze([]);

class CompiledAnalyzer implements AnswerAnalyzer {
  private readonly entities: readonly PreparedEntity[];
  private readonly matcher: NameMatcher;
  private readonly indexById: ReadonlyMap<string, number>;
  private readonly brand: PreparedEntity | null;
  /** Token and candidate buffers reused from one answer to the next (nothing of them outlives an analysis). */
  private readonly scratch = new ScannedText(4096);

  private readonly sentimentModel: CompiledSentimentModel | null;
  private readonly onFeatures: ((entityIndex: number, features: Float64Array, words: ReadonlyMap<number, number>, wordWeight: number) => void) | undefined;

  constructor(entities: readonly TrackedEntity[], options: AnalyzerOptions = {}) {
    this.entities = prepareEntities(entities);
    this.sentimentModel = options.sentimentModel === undefined ? defaultModel() : options.sentimentModel === null ? null : compileModel(options.sentimentModel);
    const sink = options.onSentimentFeatures;
    this.onFeatures = sink === undefined ? undefined : (e, features, words, weight) => sink(this.entities[e].id, features, words, weight);
    this.matcher = new NameMatcher(this.entities);
    this.indexById = new Map(this.entities.map((e) => [e.id, e.index]));
    this.brand = this.entities.find((e) => e.kind === 'brand') ?? null;
  }

  analyze(input: AnswerText): AnswerAnalysis {
    const { answer, providerCitations } = checkInput(input);
    const entities = this.entities;
    const entityCount = entities.length;
    const rendered = renderMarkdown(answer);
    const text = rendered.text;
    const lowered = lowerForMatching(text);
    const scanned = scanText(lowered, this.matcher.names.length > 0 ? this.matcher : null, this.scratch);
    const sentences = splitSentences(rendered, scanned);
    const mentions = findMentions(rendered, scanned, this.matcher);

    // Ranking.
    const units = findOptionUnits(rendered.blocks, text.length);
    const order = rankEntities(selectOptionStructures(units, mentions), mentions);

    // Citations, and whose they are.
    const inlineUrls: string[] = [];
    for (const u of rendered.urls) inlineUrls.push(u.url);
    const { citations, invalidUrls, citationOf } = collectCitations(inlineUrls, providerCitations, entities);
    // Owner entity of each citation (-1: nobody's), read through citationOf: no URL is normalised twice.
    let ownedCitations = 0;
    const citationOwner = new Int32Array(citations.length);
    for (let c = 0; c < citations.length; c++) {
      const owner = citations[c].owner;
      citationOwner[c] = owner.kind !== 'other' ? (this.indexById.get(owner.entityId) ?? -1) : -1;
      if (citationOwner[c] >= 0) ownedCitations++;
    }
    const ownerOf = (k: number): number => (k >= 0 && k < citationOf.length && citationOf[k] >= 0 ? citationOwner[citationOf[k]] : -1);

    // Sentence of each mention and of each citation marker: the entities each sentence names or cites.
    // Most sentences name or cite nobody: they share one empty list, and a list is made only for a sentence credited.
    const credited: (readonly number[])[] = new Array<readonly number[]>(sentences.length).fill(NOBODY);
    const credit = (s: number, e: number): void => {
      if (s < 0 || e < 0) return;
      const list = credited[s];
      if (list === NOBODY) credited[s] = [e];
      else if (!list.includes(e)) (list as number[]).push(e);
    };
    const mentionSentence: number[] = [];
    for (const m of mentions) {
      const s = sentenceOf(sentences, m.start);
      mentionSentence.push(s);
      credit(s, m.entityIndex);
    }
    if (ownedCitations > 0) {
      const urls = rendered.urls;
      for (let k = 0; k < urls.length; k++) credit(sentenceOf(sentences, Math.max(0, urls[k].offset - 1)), ownerOf(k));
      for (const f of rendered.footnotes) {
        const pc = providerCitations[f.n - 1];
        if (pc === undefined || typeof pc !== 'object' || pc === null || typeof pc.url !== 'string') continue;
        credit(sentenceOf(sentences, Math.max(0, f.offset - 1)), ownerOf(urls.length + f.n - 1));
      }
    }

    // Sentiment.
    let leadEntities: (number[] | undefined)[] | null = null;
    const topicOf = (s: Sentence): readonly number[] => {
      const k = unitAt(units, s.start);
      if (k < 0) return [];
      if (leadEntities === null) leadEntities = new Array<number[] | undefined>(units.length);
      let named = leadEntities[k];
      if (named === undefined) {
        named = [];
        const u = units[k];
        for (const m of mentions) {
          if (m.start < u.start) continue;
          if (m.start >= u.leadEnd) break;
          if (m.end <= u.leadEnd) {
            named.push(m.entityIndex);
            break;
          }
        }
        leadEntities[k] = named;
      }
      return named;
    };
    const sentiment = scoreEntitySentiment({
      lowered,
      scanned,
      sentences,
      mentions,
      topicOf,
      entityCount,
      dominantEntity: dominantEntity(mentions, entityCount),
      order,
      model: this.sentimentModel,
      onFeatures: this.onFeatures,
    });

    // Visibility.
    const credits: SentenceCredit[] = [];
    for (let i = 0; i < sentences.length; i++) credits.push({ wordCount: sentences[i].wordCount, entities: credited[i] });
    const shares = positionAdjustedWordCountShares(credits, entityCount);

    const rank = new Array<number | null>(entityCount).fill(null);
    for (let i = 0; i < order.length; i++) rank[order[i]] = i + 1;
    const occurrences: MentionOccurrence[][] = [];
    for (let e = 0; e < entityCount; e++) occurrences.push([]);
    const offsets = rendered.sourceOffsets;
    for (let k = 0; k < mentions.length; k++) {
      const m = mentions[k];
      occurrences[m.entityIndex].push({
        entityId: entities[m.entityIndex].id,
        surface: text.slice(m.start, m.end),
        matchedName: m.matchedName,
        start: offsets.of(m.start),
        end: offsets.of(m.end - 1) + 1,
        sentenceIndex: mentionSentence[k],
      });
    }
    const perEntity: EntityAnalysis[] = [];
    for (const e of entities) {
      const own = occurrences[e.index];
      const sentenceTexts: string[] = [];
      let lastSentence = -1;
      for (const o of own) {
        if (o.sentenceIndex >= 0 && o.sentenceIndex !== lastSentence) {
          const sentence = sentences[o.sentenceIndex];
          sentenceTexts.push(text.slice(sentence.start, sentence.end));
          lastSentence = o.sentenceIndex;
        }
      }
      const mentioned = own.length > 0;
      perEntity.push({
        entityId: e.id,
        kind: e.kind,
        name: e.name,
        mentionCount: own.length,
        firstOffset: mentioned ? own[0].start : null,
        rank: rank[e.index],
        sentences: sentenceTexts,
        sentiment: mentioned ? (sentiment[e.index] ?? { score: 0, label: 'neutral' }) : null,
        visibility: shares[e.index],
        mentions: own,
      });
    }

    const brand = this.brand;
    const brandMentioned = brand !== null && perEntity[brand.index].mentionCount > 0;
    const orderIds: string[] = [];
    const competitorsWithoutBrand: string[] = [];
    for (const i of order) {
      orderIds.push(entities[i].id);
      if (!brandMentioned && entities[i].kind === 'competitor') competitorsWithoutBrand.push(entities[i].id);
    }
    return {
      entities: perEntity,
      order: orderIds,
      citations,
      invalidUrls,
      brand: { entityId: brand?.id ?? null, mentioned: brandMentioned, rank: brand !== null ? perEntity[brand.index].rank : null },
      competitorsMentionedWithoutBrand: competitorsWithoutBrand,
      sentenceCount: sentences.length,
    };
  }
}

/**
 * Compiles a set of tracked entities once (validated names, the name matcher, domains) into an analyzer for any
 * number of answers about them: production analyses millions of answers for the same tracked brand. Throws
 * InvalidEntitiesError for unusable entities.
 */
export function createAnalyzer(entities: readonly TrackedEntity[], options?: AnalyzerOptions): AnswerAnalyzer {
  return new CompiledAnalyzer(entities, options);
}

/** Analyses one AI answer: mentions, ranking, citations, sentiment and visibility of each tracked entity. Compiles the entities each call; use createAnalyzer to analyse many answers about the same entities. */
export function analyzeAnswer(input: AnswerInput): AnswerAnalysis {
  if (typeof input !== 'object' || input === null) throw new InvalidAnswerInputError('input must be an object');
  return new CompiledAnalyzer(input.entities).analyze(input);
}
