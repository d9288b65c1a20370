import type { Owner } from '../domain';
import { AnswerScope, type AnswerScopeOf, type EntityRef } from '@libs/analysis';

/** The owner of a cited domain or URL as responses give it. */
export function ownerOf(scope: Pick<AnswerScopeOf, 'entities'>, owner: string, entityId: string | null): { kind: Owner; entity: EntityRef | null } {
  return { kind: owner as Owner, entity: entityId === null ? null : AnswerScope.entity(scope, entityId) };
}

/** Groups rows by a key, in order. */
export function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}
