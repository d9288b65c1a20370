import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '@libs/http';
import { Authenticator } from './authenticator.service';
import { PUBLIC_METADATA, SCOPE_METADATA, type AuthenticatedRequest } from './decorators';
import type { Scope } from './domain/scopes';
import { hasScope } from './principal';

/**
 * The one guard in front of every operation: authenticates (401), then checks the scope the
 * route declares with @RequireScope (403 naming it). A route must declare either @RequireScope or
 * @Public: a route that declares neither is refused, so a forgotten declaration fails closed.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_METADATA, targets)) return true;
    const scope = this.reflector.getAllAndOverride<Scope | null | undefined>(SCOPE_METADATA, targets);
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    // Authenticated as it arrived (the request gate); here only if the gate did not run, failing closed.
    const principal = request.principal ?? (await this.authenticator.authenticate(request.headers, request.ip));
    request.principal = principal;
    if (scope === undefined) throw new ApiError(500, 'INTERNAL_ERROR', 'This operation declares no scope');
    if (scope !== null && !hasScope(principal, scope)) throw ApiError.insufficientScope(scope, principal.scopes);
    return true;
  }
}
