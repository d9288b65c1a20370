import { SetMetadata, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Scope } from './domain/scopes';
import type { Principal } from './principal';

export const SCOPE_METADATA = 'access:scope';
export const PUBLIC_METADATA = 'access:public';

/** The scope an operation needs; `null` for an authenticated operation that needs none (validate-key). */
export const RequireScope = (scope: Scope | null) => SetMetadata(SCOPE_METADATA, scope);

/** An operation open without credentials (OAuth endpoints, health, metrics, documentation). */
export const Public = () => SetMetadata(PUBLIC_METADATA, true);

export type AuthenticatedRequest = FastifyRequest & { principal?: Principal };

/** The authenticated caller of this request. */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const principal = ctx.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without authentication');
  return principal;
});
