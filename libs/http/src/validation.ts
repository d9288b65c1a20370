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

/** Path parameters are left to their own pipes (ParseIdPipe), which see the raw text. */
class ApiValidationPipe extends ValidationPipe {
  private readonly queries = new ValidatedQueryMemo();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'param') return value;
    if (metadata.type !== 'query' || !metadata.metatype || !this.toValidate(metadata) || typeof value !== 'object' || value === null) {
      return super.transform(value, metadata);
    }
    const key = `${metadata.data ?? ''}?${JSON.stringify(value)}`;
    const known = this.queries.get(metadata.metatype, key);
    if (known) return known;
    const dto: unknown = await super.transform(value, metadata);
    if (typeof dto === 'object' && dto !== null) this.queries.set(metadata.metatype, key, dto);
    return dto;
  }
}
