/** An event as stored (type and data), before it is known to be one of a union. */
export interface StoredEventLike {
  type: string;
  data: unknown;
}

/** A recorded event whose type names a member of the union but whose data does not fit it. */
export class EventDecodeError extends Error {
  override readonly name = 'EventDecodeError';
  constructor(
    readonly eventType: string,
    readonly problems: string[],
  ) {
    super(`${eventType}: ${problems.join('; ')}`);
  }
}

/** A field's kind in a data shape. `?` after a kind: the field may also be null. */
export type FieldKind = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'string?' | 'number?' | 'boolean?' | 'object?' | 'array?';

/** The fields a type's data must have, by kind (extra fields are allowed: upcasters may add them). */
export type DataShape = Readonly<Record<string, FieldKind>>;

function problemsOf(data: unknown, shape: DataShape): string[] {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return ['data is not an object'];
  const problems: string[] = [];
  const record = data as Record<string, unknown>;
  for (const [field, kind] of Object.entries(shape)) {
    const value = record[field];
    const nullable = kind.endsWith('?');
    const base = nullable ? kind.slice(0, -1) : kind;
    if (value === null || value === undefined) {
      if (!(nullable && value === null)) problems.push(`${field} is missing`);
      continue;
    }
    const ok =
      base === 'object' ? typeof value === 'object' && !Array.isArray(value) : base === 'array' ? Array.isArray(value) : typeof value === base && (base !== 'number' || Number.isFinite(value));
    if (!ok) problems.push(`${field} is not ${nullable ? `${base} or null` : `a${base === 'array' || base === 'object' ? 'n' : ''} ${base}`}`);
  }
  return problems;
}

/** The shapes of every member of a union of `{type, data}` events, by type. */
export type UnionShapes<E extends { type: string }> = { readonly [T in E['type']]: DataShape };

/**
 * Typed decoding of a module's events: `decode(recorded)` is the member of the union the event's
 * type names, its data checked against that member's shape (EventDecodeError when it does not
 * fit), or null when the type is not one of the union's (another module's event). Consumers
 * (projectors, webhook mapping) then switch on `type` and read typed fields, never cast.
 */
export function eventDecoder<E extends { type: string; data: unknown }>(shapes: UnionShapes<E>): {
  readonly types: readonly E['type'][];
  decode(event: StoredEventLike): E | null;
  is(event: StoredEventLike): boolean;
} {
  const byType = new Map<string, DataShape>(Object.entries(shapes) as [string, DataShape][]);
  return {
    types: [...byType.keys()] as E['type'][],
    is: (event) => byType.has(event.type),
    decode(event) {
      const shape = byType.get(event.type);
      if (!shape) return null;
      const problems = problemsOf(event.data, shape);
      if (problems.length) throw new EventDecodeError(event.type, problems);
      return { type: event.type, data: event.data } as E;
    },
  };
}
