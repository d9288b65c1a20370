import type { ChangeType, Severity } from './citation-terms';

/** A tracked entity's place in one answer. */
export interface EntityState {
  mentioned: boolean;
  rank: number | null;
  sentiment: 'positive' | 'neutral' | 'negative' | null;
}

export interface SnapshotEntity extends EntityState {
  id: string;
  name: string;
  kind: 'brand' | 'competitor';
}

/** What the changes of DESIGN §14 compare of one analysed answer: the brand, its competitors, the brand's cited domains. */
export interface AnswerSnapshot {
  brand: SnapshotEntity | null;
  competitors: SnapshotEntity[];
  /** Distinct domains of the brand cited by the answer, sorted. */
  brandDomains: string[];
}

/** The part of an analysed answer a snapshot reads (the shape of `answer.analysed` data). */
export interface AnalysedAnswerLike {
  entities: readonly { entityId: string; kind: 'brand' | 'competitor'; name: string; mentioned: boolean; rank: number | null; sentiment: 'positive' | 'neutral' | 'negative' | null }[];
  citations: readonly { domain: string; owner: 'brand' | 'competitor' | 'other' }[];
}

export function snapshotOf(answer: AnalysedAnswerLike): AnswerSnapshot {
  const entity = (e: AnalysedAnswerLike['entities'][number]): SnapshotEntity => ({
    id: e.entityId,
    name: e.name,
    kind: e.kind,
    mentioned: e.mentioned,
    rank: e.mentioned ? e.rank : null,
    sentiment: e.mentioned ? e.sentiment : null,
  });
  const brand = answer.entities.find((e) => e.kind === 'brand');
  return {
    brand: brand ? entity(brand) : null,
    competitors: answer.entities.filter((e) => e.kind === 'competitor').map(entity),
    brandDomains: [...new Set(answer.citations.filter((c) => c.owner === 'brand').map((c) => c.domain))].sort(),
  };
}

/** One detected change: its type and severity, the entity (and domain) it is about, and that entity's state before and after. */
export interface DetectedChange {
  type: ChangeType;
  severity: Severity;
  entity: { id: string; name: string; kind: 'brand' | 'competitor' };
  domain: string | null;
  before: EntityState;
  after: EntityState;
}

const inTop3 = (s: EntityState) => s.mentioned && s.rank !== null && s.rank <= 3;
const state = (e: SnapshotEntity): EntityState => ({ mentioned: e.mentioned, rank: e.rank, sentiment: e.sentiment });
const ABSENT: EntityState = { mentioned: false, rank: null, sentiment: null };
const TONE = { negative: 0, neutral: 1, positive: 2 } as const;

/**
 * The changes from `previous` to `current` (two answers to the same prompt by the same provider,
 * in the order they were asked), DESIGN §14. Severity says what was lost:
 * - mention_lost, dropped_from_top3: high (the brand left the answer, or its top 3);
 * - citation_lost (a domain of the brand no longer cited), rank_changed to a worse rank: medium;
 * - sentiment_changed: high from positive to negative, medium one step down, low upwards;
 * - competitor_entered: medium when the brand is not mentioned or the competitor ranks ahead of it, else low;
 * - mention_gained, entered_top3, citation_gained, rank_changed to a better rank: low.
 * A rank move across the top-3 boundary is entered_top3 / dropped_from_top3, not rank_changed.
 */
export function detectChanges(previous: AnswerSnapshot, current: AnswerSnapshot): DetectedChange[] {
  const out: DetectedChange[] = [];
  const brand = current.brand ?? previous.brand;
  if (brand) {
    const ref = { id: brand.id, name: brand.name, kind: brand.kind };
    const before = previous.brand ? state(previous.brand) : ABSENT;
    const after = current.brand ? state(current.brand) : ABSENT;
    const add = (type: ChangeType, severity: Severity, domain: string | null = null) => out.push({ type, severity, entity: ref, domain, before, after });
    if (!before.mentioned && after.mentioned) add('mention_gained', 'low');
    if (before.mentioned && !after.mentioned) add('mention_lost', 'high');
    if (!inTop3(before) && inTop3(after)) add('entered_top3', 'low');
    if (inTop3(before) && !inTop3(after)) add('dropped_from_top3', 'high');
    if (before.rank !== null && after.rank !== null && before.rank !== after.rank && inTop3(before) === inTop3(after)) add('rank_changed', after.rank > before.rank ? 'medium' : 'low');
    if (before.sentiment !== null && after.sentiment !== null && before.sentiment !== after.sentiment) {
      const step = TONE[after.sentiment] - TONE[before.sentiment];
      add('sentiment_changed', step <= -2 ? 'high' : step < 0 ? 'medium' : 'low');
    }
    for (const d of current.brandDomains) if (!previous.brandDomains.includes(d)) add('citation_gained', 'low', d);
    for (const d of previous.brandDomains) if (!current.brandDomains.includes(d)) add('citation_lost', 'medium', d);
  }
  const seenBefore = new Set(previous.competitors.filter((c) => c.mentioned).map((c) => c.id));
  const brandAfter = current.brand ? state(current.brand) : ABSENT;
  for (const c of current.competitors) {
    if (!c.mentioned || seenBefore.has(c.id)) continue;
    const ahead = !brandAfter.mentioned || (c.rank !== null && (brandAfter.rank === null || c.rank < brandAfter.rank));
    const before = previous.competitors.find((p) => p.id === c.id);
    out.push({ type: 'competitor_entered', severity: ahead ? 'medium' : 'low', entity: { id: c.id, name: c.name, kind: c.kind }, domain: null, before: before ? state(before) : ABSENT, after: state(c) });
  }
  return out;
}

/** A change's id: the answer it was found in, its type, and what it is about (stable across rebuilds and re-analyses). */
export function changeId(resultId: string, change: Pick<DetectedChange, 'type' | 'entity' | 'domain'>): string {
  return [resultId, change.type, change.entity.id, ...(change.domain === null ? [] : [change.domain])].join(':');
}
