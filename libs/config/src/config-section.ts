/** One environment variable: its name, its default (as text; `(none)` when it has none) and what it means. */
export interface ConfigVariable {
  name: string;
  default: string;
  description: string;
}

/**
 * Reads variables with their defaults and validates them, recording every problem (one line each,
 * naming the variable) instead of stopping at the first: the loader reports them all at once.
 */
export interface ConfigReader {
  /** The trimmed value, or the variable's default when unset or blank. */
  raw(name: string): string;
  /** The trimmed value, or null when unset or blank (for variables without a default). */
  optional(name: string): string | null;
  int(name: string, min: number, max: number): number;
  bool(name: string): boolean;
  url(name: string, protocols: string[]): string;
  oneOf<T extends string>(name: string, values: readonly T[]): T;
  /** A comma list of delays in milliseconds (0 to 1 day each, at most 20). */
  msList(name: string): number[];
  /** Records a problem found by the section's own checks. */
  problem(name: string, message: string): void;
}

/**
 * A concern's configuration, declared beside the concern (`<concern>.config.ts`): its variables
 * and how to read them into a typed value. The composition root hands every section to
 * `loadConfig`, which validates them in one pass; `ConfigModule.forRoot` then provides each value
 * under the section's token (`@InjectConfig(SECTION)`).
 */
export interface ConfigSection<T> {
  readonly name: string;
  readonly variables: readonly ConfigVariable[];
  readonly token: symbol;
  read(reader: ConfigReader): T;
}

export function defineConfigSection<T>(name: string, variables: readonly ConfigVariable[], read: (reader: ConfigReader) => T): ConfigSection<T> {
  return { name, variables, token: Symbol(`config:${name}`), read };
}

/** The value type of a section. */
export type ConfigOf<S> = S extends ConfigSection<infer T> ? T : never;

/** Hides a password in a connection string before it is printed. */
export function redact(connectionString: string): string {
  return connectionString.replace(/\/\/([^:/@]+):[^@/]*@/, '//$1:***@');
}

export function createConfigReader(env: NodeJS.ProcessEnv, variables: readonly ConfigVariable[], problems: string[]): ConfigReader {
  const defaults = new Map(variables.map((v) => [v.name, v.default]));
  const optional = (name: string): string | null => {
    const v = env[name];
    return v !== undefined && v.trim() !== '' ? v.trim() : null;
  };
  const raw = (name: string): string => optional(name) ?? defaults.get(name) ?? '';
  const problem = (name: string, message: string) => problems.push(`${name}: ${message}`);
  return {
    raw,
    optional,
    problem,
    int(name, min, max) {
      const v = raw(name);
      if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
        problem(name, `"${v}" is not an integer from ${min} to ${max}`);
        return min;
      }
      return Number(v);
    },
    bool(name) {
      const v = raw(name).toLowerCase();
      if (['true', '1', 'yes'].includes(v)) return true;
      if (['false', '0', 'no'].includes(v)) return false;
      problem(name, `"${v}" is not a boolean (true or false)`);
      return false;
    },
    url(name, protocols) {
      const v = raw(name);
      try {
        const u = new URL(v);
        if (!protocols.includes(u.protocol)) problem(name, `"${redact(v)}" must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
      } catch {
        problem(name, `"${redact(v)}" is not a URL`);
      }
      return v;
    },
    oneOf<T extends string>(name: string, values: readonly T[]): T {
      const v = raw(name) as T;
      if (!values.includes(v)) problem(name, `"${v}" is not one of ${values.join(', ')}`);
      return v;
    },
    msList(name) {
      const text = raw(name);
      const items = text.split(',').map((s) => s.trim());
      if (items.length > 20 || items.some((s) => !/^\d{1,8}$/.test(s) || Number(s) > 86_400_000)) {
        problem(name, `"${text}" is not a comma list of at most 20 delays in milliseconds (0 to 86400000)`);
        return [];
      }
      return items.map(Number);
    },
  };
}
