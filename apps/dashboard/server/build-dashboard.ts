import { resolve } from 'node:path';
import { buildDashboard, shippedBytes, writeDashboard } from './dashboard-assets';

/**
 * `npm run build`: writes the dashboard beside the compiled service (dist/dashboard), which the
 * compiled API serves instead of bundling at start (the image holds no browser sources).
 */
async function main(): Promise<void> {
  const out = resolve(process.argv[2] ?? 'dist/dashboard');
  const assets = await buildDashboard();
  await writeDashboard(assets, out);
  const bytes = shippedBytes(assets);
  process.stdout.write(`dashboard: ${[...assets.files.keys()].join(', ')} → ${out} (${(bytes.jsGzipBytes / 1024).toFixed(1)} KB of JavaScript gzipped)\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`dashboard build failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
