import { Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
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
 * so this guard refuses any parameter sent to it, with the pipe's message for each ("property X
 * should not exist"). The API installs it after every other guard (`app.useGlobalGuards` once the
 * application is created, after the access guard; no route declares guards of its own), so it
 * runs where the pipe's own check would: after access is checked (401, 403 first), before the
 * pipes. A guard rather than an interceptor: Nest runs the handler of a route with any interceptor
 * through an rxjs pipeline built per request, and a guard is one call. Which handlers declare a
 * query is read once, from Nest's route-argument metadata (`@IgnoresQuery()` exempts a handler a
 * standard obliges to ignore unknown parameters).
 */
@Injectable()
export class UndeclaredQueryGuard implements CanActivate {
  private readonly declared = new WeakMap<object, boolean>();

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
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
    return true;
  }
}
