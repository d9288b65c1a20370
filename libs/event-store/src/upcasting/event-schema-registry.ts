/**
 * Versioned event schemas. An event type has a current schema version (1 unless registered);
 * an upcaster turns version n into n + 1. Events are stored with the version they were written
 * with and upcast to the current version on every read, so old events never need rewriting.
 */
export type Upcast = (data: Record<string, unknown>) => Record<string, unknown>;

export class UnknownSchemaVersionError extends Error {
  override readonly name = 'UnknownSchemaVersionError';
}

export class EventSchemaRegistry {
  private readonly current = new Map<string, number>();
  private readonly steps = new Map<string, Map<number, Upcast>>();

  /** Declares that `type`'s current version is `version` (≥ 1). */
  declare(type: string, version: number): this {
    if (!Number.isInteger(version) || version < 1) throw new RangeError(`schema version of ${type} must be a positive integer`);
    this.current.set(type, version);
    return this;
  }

  /** Registers the upcaster from `fromVersion` to `fromVersion + 1`; raises the current version if needed. */
  register(type: string, fromVersion: number, upcast: Upcast): this {
    let forType = this.steps.get(type);
    if (!forType) this.steps.set(type, (forType = new Map()));
    if (forType.has(fromVersion)) throw new Error(`an upcaster for ${type} v${fromVersion} is already registered`);
    forType.set(fromVersion, upcast);
    if ((this.current.get(type) ?? 1) < fromVersion + 1) this.current.set(type, fromVersion + 1);
    return this;
  }

  currentVersion(type: string): number {
    return this.current.get(type) ?? 1;
  }

  /** Brings stored data up to the current version of its type. */
  upcast(type: string, version: number, data: Record<string, unknown>): { data: Record<string, unknown>; version: number } {
    const target = this.currentVersion(type);
    if (version === target) return { data, version };
    if (version > target) {
      throw new UnknownSchemaVersionError(`${type} v${version} is newer than this code knows (v${target}); deploy the newer code first`);
    }
    let v = version;
    let d = data;
    const forType = this.steps.get(type);
    while (v < target) {
      const step = forType?.get(v);
      if (!step) throw new UnknownSchemaVersionError(`no upcaster registered for ${type} v${v} → v${v + 1}`);
      d = step(d);
      v += 1;
    }
    return { data: d, version: v };
  }
}
