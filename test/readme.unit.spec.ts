import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_CONFIG_VARIABLES } from '../apps/composition/config';

describe('README', () => {
  const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');

  it('starts with the two-command quick start', () => {
    expect(readme).toMatch(/npm ci && npm start/);
    expect(readme).toMatch(/\nnpm test/);
  });

  it('begins with exactly two commands, for a machine with Node, then the forms with your own servers and with Docker Compose', () => {
    const quickStart = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('\n## Contents'));
    const blocks = [...quickStart.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1].split('\n').filter(Boolean).map((l) => l.replace(/\s+#.*$/, '')));
    expect(blocks[0]).toEqual(['npm ci && npm start', 'npm test']);
    expect(quickStart).toMatch(/On a machine with Node 20\.19\+ \(or 22\+\) and Redis/);
    expect(blocks[1].some((l) => /^DATABASE_URL=\S+ REDIS_URL=\S+ npm start$/.test(l))).toBe(true);
    expect(quickStart).toContain('docker compose up --build');
    expect(quickStart).toContain('embedded PostgreSQL');
  });

  it('documents every configuration variable with its default', () => {
    for (const v of SERVICE_CONFIG_VARIABLES) {
      const row = readme.split('\n').find((l) => l.startsWith(`| \`${v.name}\` |`));
      expect(row).toBeDefined();
      if (v.default !== '(none)') expect(row).toContain(`\`${v.default}\``);
    }
  });

  it('names every top folder, application and library in its Layout section', () => {
    const root = join(__dirname, '..');
    const layout = readme.slice(readme.indexOf('\n## Layout\n'), readme.indexOf('\n## Configuration\n'));
    expect(layout.length).toBeGreaterThan(100);
    const dirs = (path: string) => readdirSync(join(root, path), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    const top = dirs('.').filter((d) => !d.startsWith('.') && d !== 'node_modules' && d !== 'dist' && d !== 'coverage');
    for (const folder of top) expect(layout).toMatch(new RegExp(`\\n${folder}/`));
    for (const app of dirs('apps')) expect(layout).toContain(`apps/${app} `);
    for (const lib of dirs('libs')) expect(layout).toContain(`libs/${lib} `);
  });

  it('describes the module anatomy', () => {
    for (const part of ['domain/', '<verb>-<noun>/', '.command.ts', '.handler.ts', '.query.ts', '.processor.ts', '.reactor.ts', '.http.controller.ts', '.request.dto.ts', '.response.dto.ts', 'read-model/', 'migrations/', '<concern>.module.ts', 'index.ts']) {
      expect(readme).toContain(part);
    }
  });
});
