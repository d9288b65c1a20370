import type { FastifyInstance } from 'fastify';

/** One route as Fastify registered it (`url` in Fastify syntax: `/api/v1/brands/:id`). */
export interface RegisteredRoute {
  method: string;
  url: string;
}

const registries = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/**
 * Records every route registered on `instance` from now on (Nest controllers, documentation,
 * plugins), so tests can prove each one is documented and guarded. Call it before any route is
 * registered: right after creating the adapter.
 */
export function recordRoutes(instance: FastifyInstance): void {
  if (registries.has(instance)) return;
  const routes: RegisteredRoute[] = [];
  registries.set(instance, routes);
  instance.addHook('onRoute', (route) => {
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) routes.push({ method: method.toUpperCase(), url: route.url });
  });
}

/**
 * The routes recorded on `instance`, without the HEAD twins Fastify adds to every GET.
 * Throws when `recordRoutes` was not called on it.
 */
export function registeredRoutes(instance: FastifyInstance): RegisteredRoute[] {
  const routes = registries.get(instance);
  if (!routes) throw new Error('registeredRoutes: call recordRoutes(instance) before routes are registered');
  const gets = new Set(routes.filter((r) => r.method === 'GET').map((r) => r.url));
  const seen = new Set<string>();
  return routes.filter((r) => {
    const key = `${r.method} ${r.url}`;
    if (seen.has(key) || (r.method === 'HEAD' && gets.has(r.url))) return false;
    seen.add(key);
    return true;
  });
}

/** `/api/v1/brands/{id}` → `/api/v1/brands/:id` (Fastify's spelling of an OpenAPI path). */
export function toFastifyPath(openApiPath: string): string {
  return openApiPath.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}

/** `/api/v1/brands/:id` → `/api/v1/brands/{id}` (the OpenAPI spelling of a path). */
export function toOpenApiPath(fastifyUrl: string): string {
  return fastifyUrl.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}
