import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { ApiError, type FieldProblem } from './api-error';

function flatten(errors: ValidationError[], parent = ''): FieldProblem[] {
  const out: FieldProblem[] = [];
  for (const e of errors) {
    const field = parent ? `${parent}.${e.property}` : e.property;
    for (const message of new Set(Object.values(e.constraints ?? {}))) out.push({ field, message });
    if (e.children?.length) out.push(...flatten(e.children, field));
  }
  return out;
}

/**
 * Validates bodies, queries and params against their DTOs: unknown fields are refused, values
 * are converted to the declared types, and every problem is listed in `details.fields`.
 */
export function createValidationPipe(): ValidationPipe {
  return new ApiValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    validateCustomDecorators: false,
    exceptionFactory: (errors) => ApiError.validation(flatten(errors)),
  });
}

/** A copy of a validated query DTO (own arrays and dates, same class) so no request shares another's. */
function copyOf<T extends object>(dto: T): T {
  const copy = Object.create(Object.getPrototypeOf(dto)) as Record<string, unknown>;
  for (const [k, v] of Object.entries(dto)) copy[k] = Array.isArray(v) ? [...v] : v instanceof Date ? new Date(v.getTime()) : v;
  return copy as T;
}

/**
 * Queries validated recently, by DTO class and raw query string. Converting and validating a query is
 * a pure function of the two (the DTO's decorators see only the values), so a repeated query (a
 * dashboard polling the same page) reuses the result instead of running class-transformer and
 * class-validator again (about 40 µs a request). Only successes are kept, at most `capacity` per
 * class, the least recently used dropped first; every request gets its own copy.
 */
export class ValidatedQueryMemo {
  private readonly byClass = new WeakMap<object, Map<string, object>>();

  constructor(private readonly capacity = 500) {}

  get(metatype: object, key: string): object | undefined {
    const entries = this.byClass.get(metatype);
    const hit = entries?.get(key);
    if (!entries || hit === undefined) return undefined;
    entries.delete(key); // re-inserted: most recently used last
    entries.set(key, hit);
    return copyOf(hit);
  }

  set(metatype: object, key: string, dto: object): void {
    let entries = this.byClass.get(metatype);
    if (!entries) this.byClass.set(metatype, (entries = new Map()));
    entries.set(key, copyOf(dto));
    if (entries.size > this.capacity) entries.delete(entries.keys().next().value!);
  }
}

/** NUL (which PostgreSQL text and jsonb cannot hold) or a UTF-16 surrogate without its pair (not Unicode). */
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** How deeply a body may nest (objects and arrays): deeper JSON cannot be serialised again (call stack). */
export const MAX_INPUT_DEPTH = 64;

/**
 * Names no request field may have: every member of `Object.prototype` (`constructor`, `toString`,
 * `__proto__`, ...). class-validator's unknown-field check looks names up in a plain object, so
 * these would pass it; some would reach the prototype chain of the objects built from the input.
 */
export function isPrototypeName(key: string): boolean {
  return Object.prototype.hasOwnProperty.call(Object.prototype, key) || key === '__proto__';
}

/**
 * The first thing in a body or query that cannot be taken: a key named like a member of
 * `Object.prototype`, a string (value or key) holding NUL or an unpaired surrogate, or nesting
 * deeper than MAX_INPUT_DEPTH; null when there is none. Walks with its own stack, so a deeply
 * nested body cannot overflow the call stack.
 */
export function inputProblem(value: unknown): FieldProblem | null {
  const stack: [unknown, string, number][] = [[value, '', 0]];
  const text = (field: string): FieldProblem => ({ field: field || 'body', message: `${field || 'body'} holds a NUL character or an unpaired UTF-16 surrogate` });
  while (stack.length) {
    const [v, path, depth] = stack.pop()!;
    if (typeof v === 'string') {
      if (UNSTORABLE.test(v)) return text(path);
    } else if (typeof v === 'object' && v !== null) {
      if (depth >= MAX_INPUT_DEPTH) return { field: path, message: `${path} is nested more than ${MAX_INPUT_DEPTH} levels deep` };
      if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}[${i}]`, depth + 1]);
      } else {
        for (const [k, child] of Object.entries(v)) {
          const at = path ? `${path}.${k}` : k;
          if (isPrototypeName(k)) return { field: at, message: `property ${at} should not exist` };
          if (UNSTORABLE.test(k)) return text(at);
          stack.push([child, at, depth + 1]);
        }
      }
    }
  }
  return null;
}

function refuseUnstorable(value: unknown): void {
  const problem = inputProblem(value);
  if (problem !== null) throw ApiError.validation([problem]);
}

/**
 * A JSON body a DTO describes must be an object: `null` (which Nest's pipe would validate as `{}`,
 * so a PUT would replace everything with nothing), an array or a scalar is 400 naming `body`. A
 * request without a body is left to the DTO's rules.
 */
function refuseNonObjectBody(value: unknown): void {
  if (value === undefined || (typeof value === 'object' && value !== null && !Array.isArray(value))) return;
  throw ApiError.validation([{ field: 'body', message: 'body must be a JSON object' }]);
}

/**
 * Path parameters are left to their own pipes (ParseIdPipe), which see the raw text. Bodies and
 * queries that cannot be taken (`inputProblem`) are refused first (400, naming the field), for
 * every route, whatever its DTO; so is a body a DTO describes that is not an object.
 */
class ApiValidationPipe extends ValidationPipe {
  private readonly queries = new ValidatedQueryMemo();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'param') return value;
    if (metadata.type === 'body' && metadata.data === undefined && this.toValidate(metadata)) refuseNonObjectBody(value);
    if (metadata.type !== 'query' || !metadata.metatype || !this.toValidate(metadata) || typeof value !== 'object' || value === null) {
      if (metadata.type === 'body' || metadata.type === 'query') refuseUnstorable(value);
      return super.transform(value, metadata);
    }
    const key = `${metadata.data ?? ''}?${JSON.stringify(value)}`;
    const known = this.queries.get(metadata.metatype, key); // only values that passed the check below are kept
    if (known) return known;
    refuseUnstorable(value);
    const dto: unknown = await super.transform(value, metadata);
    if (typeof dto === 'object' && dto !== null) this.queries.set(metadata.metatype, key, dto);
    return dto;
  }
}
