#!/usr/bin/env node
// What makes a fresh clone ready to run: npm runs this after `npm ci` and `npm install` (the
// `prepare` script of package.json), so the README's two commands need nothing else.
//
// To add a step, append { name, run } to STEPS: `run` is an async function; it may return a short
// text to print after the step's name. Steps run in order; one that throws stops `npm ci` with its
// message. Keep each step quick and idempotent (it runs after every install), and let it do nothing
// where its inputs are absent (the Docker image installs before copying the sources).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, build, plan } from './runtime-build.mjs';

const STEPS = [
  {
    // TypeScript compiled ahead of time for `npm start` and `npm run cli` (scripts/run.mjs).
    name: 'runtime build',
    async run() {
      if (!existsSync(join(ROOT, 'apps'))) return 'no sources here yet: skipped';
      const p = plan();
      if (p.fresh) return 'up to date';
      let done;
      try {
        done = await build(p);
      } catch (error) {
        // An install without devDependencies (npm ci --omit=dev) has no TypeScript: it runs dist/ (npm run build).
        if (error.code === 'MODULE_NOT_FOUND') return `skipped: the compiler is not installed (${error.message.split('\n')[0]})`;
        throw error;
      }
      const { compiled, removed, failed } = done;
      const problems = failed.length ? `; did not compile (npm run typecheck tells why): ${failed.join(', ')}` : '';
      return `${compiled} file(s) compiled, ${removed} removed into node_modules/.cache/runtime-build${problems}`;
    },
  },
];

for (const step of STEPS) {
  const started = Date.now();
  const said = await step.run();
  process.stdout.write(`prepare: ${step.name}: ${said ?? 'done'} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
}
