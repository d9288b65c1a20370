import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The dashboard's shipped files: the page and its hashed assets (DESIGN §15). */
export interface DashboardAssets {
  /** index.html, served for every /app path (the app routes in the browser). */
  html: string;
  /** Hashed file names (`app-XXXX.js`, `app-XXXX.css`) and their bytes. */
  files: Map<string, Buffer>;
}

const ENTRY = 'apps/dashboard/src/main.ts';
/**
 * The repository's root: the nearest folder above this file holding the dashboard's sources. From
 * source that is three levels up (apps/dashboard/server/); from the runtime build `npm start` runs
 * (node_modules/.cache/runtime-build/apps/dashboard/server/) it is further.
 */
export const REPOSITORY_ROOT = (() => {
  for (let dir = resolve(__dirname, '..', '..', '..'); ; ) {
    if (existsSync(join(dir, ENTRY))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return resolve(__dirname, '..', '..', '..');
    dir = parent;
  }
})();
/** Where `npm run build` writes the dashboard for the compiled service (the Docker image). */
export const BUILT_DIR_NAME = 'dashboard';

function page(script: string, style: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>AI visibility</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/app/assets/${style}">
<script type="module" src="/app/assets/${script}"></script>
</head>
<body>
<div id="app"><p class="boot">Loading the dashboard…</p></div>
<noscript>The dashboard needs JavaScript. The API itself is documented at <a href="/docs">/docs</a>.</noscript>
</body>
</html>
`;
}

/**
 * Bundles the browser app (Preact + htm + uPlot, TypeScript) with esbuild into one ES module and
 * one stylesheet, minified, named by content hash. Nothing is written to disk.
 */
export async function buildDashboard(root: string = REPOSITORY_ROOT): Promise<DashboardAssets> {
  // Loaded here so a process that never serves the dashboard never loads esbuild.
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { app: ENTRY },
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
    platform: 'browser',
    write: false,
    outdir: 'out',
    entryNames: '[name]-[hash]',
    legalComments: 'none',
    tsconfig: 'apps/dashboard/tsconfig.json',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  const files = new Map<string, Buffer>();
  for (const f of result.outputFiles) files.set(f.path.slice(f.path.lastIndexOf('/') + 1), Buffer.from(f.contents));
  const script = [...files.keys()].find((n) => n.endsWith('.js'));
  const style = [...files.keys()].find((n) => n.endsWith('.css'));
  if (!script || !style) throw new Error(`the dashboard build produced no script or no stylesheet (${[...files.keys()].join(', ')})`);
  return { html: page(script, style), files };
}

/** Writes a build to `dir` (index.html and the assets), for the compiled service. */
export async function writeDashboard(assets: DashboardAssets, dir: string): Promise<void> {
  await mkdir(join(dir, 'assets'), { recursive: true });
  await writeFile(join(dir, 'index.html'), assets.html);
  for (const [name, content] of assets.files) await writeFile(join(dir, 'assets', name), content);
}

/** Reads a build written by `writeDashboard`. */
export async function readDashboard(dir: string): Promise<DashboardAssets> {
  const files = new Map<string, Buffer>();
  for (const name of await readdir(join(dir, 'assets'))) files.set(name, await readFile(join(dir, 'assets', name)));
  return { html: await readFile(join(dir, 'index.html'), 'utf8'), files };
}

/**
 * The dashboard this process serves: from source, bundled now (`npm start`, tests: always the
 * current code, nothing to go stale); compiled (`npm run build`, the image), the build written
 * beside the compiled code.
 */
export function loadDashboard(): Promise<DashboardAssets> {
  const compiled = __filename.endsWith('.js');
  const built = resolve(__dirname, '..', '..', '..', BUILT_DIR_NAME);
  if (compiled && existsSync(join(built, 'index.html'))) return readDashboard(built);
  return buildDashboard();
}

/** Total and gzipped bytes of the shipped JavaScript and CSS (the budget: 150 KB gzipped of JavaScript). */
export function shippedBytes(assets: DashboardAssets): { jsBytes: number; jsGzipBytes: number; cssGzipBytes: number } {
  let jsBytes = 0;
  let jsGzipBytes = 0;
  let cssGzipBytes = 0;
  for (const [name, content] of assets.files) {
    const gz = gzipSync(content, { level: 9 }).length;
    if (name.endsWith('.js')) {
      jsBytes += content.length;
      jsGzipBytes += gz;
    } else cssGzipBytes += gz;
  }
  return { jsBytes, jsGzipBytes, cssGzipBytes };
}

/** A short content hash (ETag of the page). */
export function etagOf(content: string | Buffer): string {
  return `"${createHash('sha256').update(content).digest('base64url').slice(0, 16)}"`;
}
