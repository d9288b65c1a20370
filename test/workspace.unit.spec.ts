import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The workspace's lists of its parts are complete. nest-cli.json names every application (a folder of apps/ with a main.ts) and every library
 * (each folder of libs/, and projections/), with the root, source root and entry file that exist,
 * so `nest generate`, `nest build <name>` and editors see the whole house; tsconfig.json (and so Jest,
 * dependency-cruiser and swc-node) knows every library's test kit as `@libs/<name>/testing`.
 */
const root = join(__dirname, '..');
const dirs = (path: string) => readdirSync(join(root, path), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

interface NestProject {
  type: 'application' | 'library';
  root: string;
  sourceRoot: string;
  entryFile: string;
}

describe('nest-cli.json', () => {
  const { projects } = JSON.parse(readFileSync(join(root, 'nest-cli.json'), 'utf8')) as { projects: Record<string, NestProject> };

  it('lists every application and every library', () => {
    // apps/dashboard is the browser's code (bundled by esbuild, served by the API), not a Nest application.
    const applications = dirs('apps').filter((app) => app !== 'dashboard' && existsSync(join(root, 'apps', app, 'src', 'main.ts')));
    const expected = [
      ...applications.map((name) => [name, { type: 'application', root: `apps/${name}`, sourceRoot: `apps/${name}/src`, entryFile: 'main' }] as const),
      ...dirs('libs').map((name) => [name, { type: 'library', root: `libs/${name}`, sourceRoot: `libs/${name}/src`, entryFile: 'index' }] as const),
      ['projections', { type: 'library', root: 'projections', sourceRoot: 'projections', entryFile: 'index' }] as const,
    ];
    expect(Object.keys(projects).sort()).toEqual(expected.map(([name]) => name).sort());
    for (const [name, project] of expected) expect([name, projects[name]]).toEqual([name, project]);
  });

  it('names entry files that exist', () => {
    for (const [name, p] of Object.entries(projects)) expect([name, existsSync(join(root, p.sourceRoot, `${p.entryFile}.ts`))]).toEqual([name, true]);
  });
});

describe('tsconfig.json', () => {
  it('maps every test kit (libs/<name>/src/testing/index.ts) to @libs/<name>/testing', () => {
    // tsconfig-paths (dependency-cruiser, swc-node) mis-reads a star inside a pattern, so each kit is named exactly.
    const { paths } = (JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } }).compilerOptions;
    const kits = dirs('libs').filter((name) => existsSync(join(root, 'libs', name, 'src', 'testing', 'index.ts')));
    expect(kits.length).toBeGreaterThan(0);
    const aliases = Object.fromEntries(Object.entries(paths).filter(([alias]) => alias.endsWith('/testing')));
    expect(aliases).toEqual(Object.fromEntries(kits.map((name) => [`@libs/${name}/testing`, [`./libs/${name}/src/testing`]])));
  });
});
