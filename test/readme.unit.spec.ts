import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_CONFIG_VARIABLES } from '../apps/composition/config';

describe('README', () => {
  const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');

  it('starts with the two-command quick start', () => {
    expect(readme).toMatch(/npm ci && npm start/);
    expect(readme).toMatch(/\nnpm test/);
  });

  it('documents every configuration variable with its default', () => {
    for (const v of SERVICE_CONFIG_VARIABLES) {
      const row = readme.split('\n').find((l) => l.startsWith(`| \`${v.name}\` |`));
      expect(row).toBeDefined();
      if (v.default !== '(none)') expect(row).toContain(`\`${v.default}\``);
    }
  });
});
