import { InvalidEntitiesError } from '../errors';
import { EntityKind } from '../types';

/** A tracked entity checked and tidied: trimmed, de-duplicated names and lower-case domains. */
export interface PreparedEntity {
  readonly index: number;
  readonly id: string;
  readonly kind: EntityKind;
  readonly name: string;
  /** Name first, then aliases; unique case-insensitively. */
  readonly names: readonly string[];
  readonly domains: readonly string[];
}

const MAX_NAME_LENGTH = 200;
const MAX_NAMES = 200;

function tidyDomain(value: string): string {
  let d = value.trim().toLowerCase();
  d = d.replace(/^[a-z][a-z0-9+.-]{0,20}:\/\//, '');
  const slash = d.indexOf('/');
  if (slash >= 0) d = d.slice(0, slash);
  if (d.startsWith('www.')) d = d.slice(4);
  while (d.endsWith('.')) d = d.slice(0, -1);
  return d;
}

function stringList(value: unknown, what: string, id: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new InvalidEntitiesError(`entity "${id}": ${what} must be a list of strings`);
  const out: string[] = [];
  for (const v of value) {
    if (typeof v !== 'string') throw new InvalidEntitiesError(`entity "${id}": ${what} must be a list of strings`);
    out.push(v);
  }
  return out;
}

/** Validates the tracked entities. Throws InvalidEntitiesError for a non-list, a missing id or name, an unknown kind or a duplicate id. */
export function prepareEntities(entities: unknown): PreparedEntity[] {
  if (!Array.isArray(entities)) throw new InvalidEntitiesError('entities must be a list');
  const seen = new Set<string>();
  const prepared: PreparedEntity[] = [];
  entities.forEach((raw: unknown, index: number) => {
    if (typeof raw !== 'object' || raw === null) throw new InvalidEntitiesError(`entity #${index + 1} is not an object`);
    const e = raw as Record<string, unknown>;
    const id = e.id;
    if (typeof id !== 'string' || id.trim() === '') throw new InvalidEntitiesError(`entity #${index + 1} has no id`);
    if (seen.has(id)) throw new InvalidEntitiesError(`duplicate entity id "${id}"`);
    seen.add(id);
    const kind = e.kind;
    if (kind !== 'brand' && kind !== 'competitor') throw new InvalidEntitiesError(`entity "${id}": kind must be "brand" or "competitor"`);
    const name = e.name;
    if (typeof name !== 'string' || name.trim() === '') throw new InvalidEntitiesError(`entity "${id}" has no name`);
    const names: string[] = [];
    const lower = new Set<string>();
    for (const n of [name, ...stringList(e.aliases, 'aliases', id)]) {
      const t = n.replace(/\s+/g, ' ').trim();
      if (t === '' || t.length > MAX_NAME_LENGTH || lower.has(t.toLowerCase())) continue;
      lower.add(t.toLowerCase());
      names.push(t);
      if (names.length >= MAX_NAMES) break;
    }
    const domains = [...new Set(stringList(e.domains, 'domains', id).map(tidyDomain).filter((d) => d.length > 0))];
    prepared.push({ index, id, kind, name: name.trim(), names, domains });
  });
  return prepared;
}
