#!/usr/bin/env node
// Runs an entry point of the service from the runtime build (scripts/runtime-build.mjs):
//   node scripts/run.mjs apps/cli/src/main.ts [arguments…]        (npm run cli, npm start, …)
// The build is checked against the sources first (a walk and a stat per file, a few milliseconds)
// and whatever changed is recompiled before anything runs, so an edited source is never run stale.
// Where the build cannot be written (a read-only checkout), it falls back to compiling as the code
// loads (@swc-node/register), as `node -r @swc-node/register <entry>` does.
import { createRequire } from 'node:module';
import { relative, resolve } from 'node:path';
import { unsupportedNode } from './check-node.mjs';
import { ROOT, build, outputOf, plan } from './runtime-build.mjs';

const problem = unsupportedNode();
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}

const [entry, ...args] = process.argv.slice(2);
if (!entry || !entry.endsWith('.ts')) {
  process.stderr.write('usage: node scripts/run.mjs <entry>.ts [arguments…]\n');
  process.exit(2);
}
const source = resolve(entry);
const require = createRequire(import.meta.url);

let target = outputOf(relative(ROOT, source).split('\\').join('/'));
try {
  const p = plan();
  if (!p.fresh) await build(p);
} catch (error) {
  if (!['EACCES', 'EPERM', 'EROFS'].includes(error.code)) throw error;
  require('@swc-node/register');
  target = source;
}

// Stack traces name the TypeScript lines (the build writes a source map beside each file).
process.setSourceMapsEnabled(true);
process.argv = [process.argv[0], target, ...args];
require(target);
