import { Injectable, SetMetadata, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { Observable } from 'rxjs';
import { ApiError } from './api-error';

/** The message of a query string sent to an operation that declares no query parameter. */
export const NO_QUERY_MESSAGE = 'This operation takes no query parameters';

const IGNORES_QUERY = 'http:ignoresQuery';

/**
 * The operation ignores its query string instead of refusing it: only for a standard that says so
 * (RFC 6749 §3.2: the OAuth token endpoint MUST ignore unrecognised request parameters).
 */
export const IgnoresQuery = () => SetMetadata(IGNORES_QUERY, true);

/** Whether a handler takes its query (`@Query()`): its argument metadata holds an entry of type QUERY. */
function declaresQuery(controller: object, handler: string): boolean {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler) ?? {}) as Record<string, unknown>;
  return Object.keys(args).some((key) => key.split(':')[0] === String(RouteParamtypes.QUERY));
}

/**
 * Unknown query parameters are 400 on every route. A route with a query DTO refuses them in the
 * validation pipe (`forbidNonWhitelisted`); a route without one never runs the pipe on its query,
 * so this interceptor (after the guards, before the pipes, like the pipe's own check) refuses any
 * parameter sent to it, with the pipe's message for each ("property X should not exist"). Which
 * handlers declare a query is read once, from Nest's route-argument metadata (`@IgnoresQuery()`
 * exempts a handler a standard obliges to ignore unknown parameters).
 */
@Injectable()
export class UndeclaredQueryInterceptor implements NestInterceptor {
  private readonly declared = new WeakMap<object, boolean>();

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const handler = context.getHandler();
    let declared = this.declared.get(handler);
    if (declared === undefined) {
      declared = Reflect.getMetadata(IGNORES_QUERY, handler) === true || declaresQuery(context.getClass(), handler.name);
      this.declared.set(handler, declared);
    }
    if (!declared) {
      const query = context.switchToHttp().getRequest<{ query?: unknown }>().query;
      const names = query !== null && typeof query === 'object' ? Object.keys(query) : [];
      if (names.length) throw ApiError.validation(names.map((name) => ({ field: name, message: `property ${name} should not exist` })), NO_QUERY_MESSAGE);
    }
    return next.handle();
  }
}
