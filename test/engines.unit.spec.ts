import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { ROOT } from './support/processes';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { engines?: unknown }> };
const minimum = semver.minVersion(pkg.engines.node)!.version;

/** The README's promise (engines.node) holds for every package `npm ci` installs. */
describe('the supported Node versions', () => {
  it('every locked package admits the lowest Node the project supports (no EBADENGINE on it)', () => {
    const refusing = Object.entries(lock.packages)
      .map(([path, entry]) => [path, (entry.engines as { node?: unknown } | undefined)?.node] as const)
      .filter((e): e is readonly [string, string] => typeof e[1] === 'string' && !semver.satisfies(minimum, e[1]))
      .map(([path, range]) => `${path.replace(/^node_modules\//, '')} needs Node ${range}`);
    expect(minimum).toBe('20.19.0');
    expect(refusing).toEqual([]);
  });

  it('the README names the same minimum as engines', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(`Node ${minimum.replace(/\.0$/, '')}+`);
  });

  it('scripts/check-node.mjs (run before npm ci) agrees with semver on the engines range and others', () => {
    const ranges = [pkg.engines.node, '^20.19 || >=22.12', '>= 18 < 21', '20.x', '~20.19'];
    const versions = ['v18.20.4', 'v20.0.0', 'v20.18.3', 'v20.19.0', 'v20.20.2', 'v21.7.3', 'v22.11.0', 'v22.12.0', 'v24.1.0'];
    const script = `import { nodeSatisfies } from ${JSON.stringify(join(ROOT, 'scripts', 'check-node.mjs'))};
      const out = {}; for (const r of ${JSON.stringify(ranges)}) for (const v of ${JSON.stringify(versions)}) out[r + ' ' + v] = nodeSatisfies(r, v);
      process.stdout.write(JSON.stringify(out));`;
    const ours = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as Record<string, boolean>;
    for (const r of ranges) for (const v of versions) expect([r, v, ours[`${r} ${v}`]]).toEqual([r, v, semver.satisfies(v, r)]);
  });

  it('scripts/check-node.mjs refuses an unsupported Node with one line', () => {
    const script = `import { unsupportedNode } from ${JSON.stringify(join(ROOT, 'scripts', 'check-node.mjs'))};
      process.stdout.write(JSON.stringify([unsupportedNode('v18.20.4'), unsupportedNode('${'v' + minimum}')]));`;
    const [refused, accepted] = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as [string, string | null];
    expect(refused).toBe(`unsupported Node.js v18.20.4: this project needs Node ${pkg.engines.node} (package.json "engines"); install a supported version, e.g. the current LTS`);
    expect(accepted).toBeNull();
  });
});
