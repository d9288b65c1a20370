import type { INestApplication } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';

/**
 * How the application declares access on its handlers. The auth library owns the decorators; the
 * application passes their metadata keys in, so this library does not depend on it.
 */
export interface AccessDeclarations {
  /** Every scope a credential may hold, in the order the document lists them. */
  scopes: readonly string[];
  /** Metadata key of `@RequireScope(scope | null)`. */
  scopeMetadataKey: string;
  /** Metadata key of `@Public()`. */
  publicMetadataKey: string;
}

/** What a handler declares: open to all, a scope (`null`: authenticated, no scope), or nothing (the guard refuses it). */
export type OperationAccess = { kind: 'public' } | { kind: 'scope'; scope: string | null } | { kind: 'undeclared' };

/** The operationId of a handler: `BrandsController.list` → `brands_list`. */
export function operationIdOf(controllerName: string, methodName: string, version?: string): string {
  const base = controllerName.replace(/Controller$/, '') || controllerName;
  return `${base.charAt(0).toLowerCase()}${base.slice(1)}_${methodName}${version ? `_v${version}` : ''}`;
}

/** Reads access the way the guard does: the handler's declaration wins over its class's. */
export function accessOf(handler: object, controller: object, declarations: AccessDeclarations): OperationAccess {
  const reflector = new Reflector();
  const targets = [handler, controller] as Parameters<Reflector['getAllAndOverride']>[1];
  if (reflector.getAllAndOverride<boolean>(declarations.publicMetadataKey, targets)) return { kind: 'public' };
  const scope = reflector.getAllAndOverride<string | null | undefined>(declarations.scopeMetadataKey, targets);
  return scope === undefined ? { kind: 'undeclared' } : { kind: 'scope', scope };
}

/** Where @nestjs/swagger keeps `@ApiOperation({...})` (an explicit `operationId` wins over the derived one). */
const API_OPERATION_METADATA = 'swagger/apiOperation';

/**
 * The access of every route handler of every controller, by operationId (the one `@ApiOperation`
 * declares, else as `operationIdOf` names it). Two controllers with the same class name would give two operations one id: that throws.
 */
export function operationAccessTable(app: INestApplication, declarations: AccessDeclarations): Map<string, OperationAccess> {
  const table = new Map<string, OperationAccess>();
  const owners = new Map<string, unknown>();
  const scanner = new MetadataScanner();
  for (const module of app.get(ModulesContainer, { strict: false }).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (abstract new (...args: never[]) => unknown) | null;
      if (typeof controller !== 'function') continue;
      const prototype = controller.prototype as Record<string, unknown>;
      for (const method of scanner.getAllMethodNames(prototype)) {
        const handler = prototype[method];
        if (typeof handler !== 'function' || Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        const declared = (Reflect.getMetadata(API_OPERATION_METADATA, handler) as { operationId?: string } | undefined)?.operationId;
        const id = declared ?? operationIdOf(controller.name, method);
        if (owners.has(id) && owners.get(id) !== controller) {
          throw new Error(`OpenAPI: two controllers named ${controller.name} both define ${method}(); rename one so operationIds stay unique`);
        }
        owners.set(id, controller);
        table.set(id, accessOf(handler, controller, declarations));
      }
    }
  }
  return table;
}
