import type { INestApplication } from '@nestjs/common';

const HOOKS = ['onModuleDestroy', 'beforeApplicationShutdown', 'onApplicationShutdown'] as const;

/**
 * Wraps every provider's and controller's shutdown hooks so that one still pending after
 * `afterMs` is named on stderr (module, class, hook), once, and again when it finally returns.
 * A close that hangs then says where, instead of only timing out. Test support only: it reads
 * Nest's module container, which is not public API.
 */
export function watchShutdownHooks(app: INestApplication, afterMs = Number(process.env.SHUTDOWN_WATCH_MS ?? 15_000)): void {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const container = (app as any).container as { getModules(): Map<string, { name: string; providers: Map<unknown, { instance: unknown }>; controllers: Map<unknown, { instance: unknown }> }> } | undefined;
  if (!container?.getModules) return;
  const seen = new Set<unknown>();
  for (const mod of container.getModules().values()) {
    for (const wrapper of [...mod.providers.values(), ...mod.controllers.values()]) {
      const instance = wrapper.instance as Record<string, unknown> | null | undefined;
      if (!instance || typeof instance !== 'object' || seen.has(instance)) continue;
      seen.add(instance);
      for (const hook of HOOKS) {
        const original = instance[hook];
        if (typeof original !== 'function') continue;
        const name = `${mod.name}/${instance.constructor?.name ?? '?'}.${hook}`;
        instance[hook] = async function watched(this: unknown, ...args: unknown[]) {
          const started = Date.now();
          const timer = setTimeout(() => process.stderr.write(`[shutdown-watch] ${name} still pending after ${afterMs} ms\n`), afterMs);
          timer.unref();
          try {
            return await (original as (...a: unknown[]) => unknown).apply(this, args);
          } finally {
            clearTimeout(timer);
            const took = Date.now() - started;
            if (took >= afterMs) process.stderr.write(`[shutdown-watch] ${name} returned after ${took} ms\n`);
          }
        };
      }
    }
  }
}
