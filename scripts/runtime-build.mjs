// The runtime build: the TypeScript of apps/, libs/ and projections/ compiled to CommonJS, file by
// file, the way `node -r @swc-node/register` compiles it as it loads (the same swc options, derived
// from tsconfig.json by @swc-node/register itself), into node_modules/.cache/runtime-build/ with a
// source map beside each file. `npm ci` builds it (scripts/prepare.mjs); scripts/run.mjs runs an
// entry point from it after checking it against the sources and recompiling what changed.
//
// "Up to date" is decided per file: the manifest records each source's size, mtime and SHA-256;
// a file whose size or mtime differs is hashed, and recompiled only if its content differs. A new
// source is compiled, a deleted one's output removed (so a stale module can never be loaded in
// its place). A change to tsconfig.json, to the compiler packages' versions or to this script
// rebuilds everything. No type-checking here: that is `npm run typecheck`.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Where the build lives: inside node_modules, so `npm ci` starts it afresh and git never sees it. */
export const OUT = join(ROOT, 'node_modules', '.cache', 'runtime-build');
const SOURCE_DIRS = ['apps', 'libs', 'projections'];
const MANIFEST = 'manifest.json';
const require = createRequire(import.meta.url);

/** Compiled (.ts, not tests or declarations) or copied (.json, for `import x from './x.json'`). */
function isSource(name) {
  return (name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.endsWith('.spec.ts')) || name.endsWith('.json');
}

/** Every source file, by path relative to the root ('/'-separated), with its size and mtime. */
function listSources(root) {
  const found = new Map();
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
      } else if (isSource(entry.name)) {
        const s = statSync(path);
        found.set(relative(root, path).split(sep).join('/'), { size: s.size, mtimeMs: s.mtimeMs });
      }
    }
  };
  for (const dir of SOURCE_DIRS) {
    try {
      walk(join(root, dir));
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
    }
  }
  return found;
}

const sha256 = (data) => createHash('sha256').update(data).digest('hex');

function packageVersion(name) {
  return JSON.parse(readFileSync(join(ROOT, 'node_modules', ...name.split('/'), 'package.json'), 'utf8')).version;
}

/** What every output depends on besides its own source: a change here rebuilds everything. */
function inputsKey(root) {
  return sha256(
    JSON.stringify([
      readFileSync(fileURLToPath(import.meta.url), 'utf8'),
      readFileSync(join(root, 'tsconfig.json'), 'utf8'),
      ['@swc/core', '@swc-node/core', '@swc-node/register'].map(packageVersion),
    ]),
  );
}

function readManifest(out) {
  try {
    return JSON.parse(readFileSync(join(out, MANIFEST), 'utf8'));
  } catch {
    return null;
  }
}

/** The compiled file of a source: apps/cli/src/main.ts → <out>/apps/cli/src/main.js. */
export function outputOf(rel, out = OUT) {
  return join(out, rel.endsWith('.ts') ? rel.replace(/\.ts$/, '.js') : rel);
}

/**
 * What the build lacks: the sources to compile (new or changed) and the outputs to remove
 * (sources deleted). `fresh` when there is nothing to do.
 */
export function plan({ root = ROOT, out = OUT } = {}) {
  const key = inputsKey(root);
  const manifest = readManifest(out);
  const known = manifest?.inputs === key ? manifest.files : {};
  const sources = listSources(root);
  const compile = [];
  const unchanged = {};
  for (const [rel, stat] of sources) {
    const before = known[rel];
    if (before && before.size === stat.size && before.mtimeMs === stat.mtimeMs) unchanged[rel] = before;
    else if (before && before.size === stat.size && before.hash === sha256(readFileSync(join(root, rel)))) unchanged[rel] = { ...stat, hash: before.hash };
    else compile.push(rel);
  }
  const remove = Object.keys(manifest?.files ?? {}).filter((rel) => !sources.has(rel));
  const touched = Object.keys(unchanged).some((rel) => unchanged[rel].mtimeMs !== known[rel].mtimeMs);
  return { root, out, key, compile, remove, unchanged, fresh: compile.length === 0 && remove.length === 0 && !touched };
}

/** Writes `data` to `path` through a temporary file and a rename: a reader sees the old file or the new one. */
function writeAtomically(path, data) {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, data);
  renameSync(temporary, path);
}

/**
 * Brings the build up to date with a plan (by default a new one): compiles what it lists, removes
 * what it lists, records the manifest. Returns how many files were compiled and removed, and the
 * sources that did not compile: each one's output throws swc's message when it is loaded.
 */
export async function build(p = plan()) {
  const { root, out } = p;
  const files = { ...p.unchanged };
  const failed = [];
  if (p.compile.length) {
    // The same conversion @swc-node/register applies when it loads a file (register() forces CommonJS).
    const { readDefaultTsConfig, tsCompilerOptionsToSwcConfig } = require('@swc-node/register/read-default-tsconfig');
    const { transform } = require('@swc-node/core');
    const options = { ...readDefaultTsConfig(join(root, 'tsconfig.json')), module: 1 /* ts.ModuleKind.CommonJS */ };
    const queue = [...p.compile];
    const worker = async () => {
      for (let rel = queue.shift(); rel !== undefined; rel = queue.shift()) {
        const path = join(root, rel);
        const stat = statSync(path);
        const source = readFileSync(path);
        const target = outputOf(rel, out);
        if (rel.endsWith('.json')) {
          writeAtomically(target, source);
        } else {
          let result;
          try {
            result = await transform(source.toString('utf8'), path, tsCompilerOptionsToSwcConfig(options, path));
          } catch (error) {
            // As when compiling as it loads: the error is thrown where the file is loaded, not before.
            failed.push(rel);
            result = { code: `throw new SyntaxError(${JSON.stringify(`${rel} does not compile: ${error.message ?? error}`)});\n` };
          }
          const mapName = `${target.slice(dirname(target).length + 1)}.map`;
          rmSync(`${target}.map`, { force: true });
          if (result.map) writeAtomically(`${target}.map`, result.map);
          writeAtomically(target, result.map ? `${result.code}\n//# sourceMappingURL=${mapName}\n` : result.code);
        }
        files[rel] = { size: stat.size, mtimeMs: stat.mtimeMs, hash: sha256(source) };
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
  }
  for (const rel of p.remove) {
    rmSync(outputOf(rel, out), { force: true });
    rmSync(`${outputOf(rel, out)}.map`, { force: true });
  }
  writeAtomically(join(out, MANIFEST), JSON.stringify({ inputs: p.key, files }));
  return { compiled: p.compile.length, removed: p.remove.length, failed };
}
