import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from './support/processes';

/**
 * The runtime build (scripts/runtime-build.mjs) that `npm start` and `npm run cli` run from
 * (scripts/run.mjs): checked against the sources on every start, so an edited, added or deleted
 * source is never run stale. Exercised on a small project of its own in a temporary folder.
 */
const BUILD = join(ROOT, 'scripts', 'runtime-build.mjs');
let root: string;
let out: string;

function write(rel: string, text: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

/** plan() then build() of the temporary project; what each said. */
function rebuild(): { compile: string[]; remove: string[]; fresh: boolean; failed: string[] } {
  const script = `import { plan, build } from ${JSON.stringify(BUILD)};
    const p = plan({ root: ${JSON.stringify(root)}, out: ${JSON.stringify(out)} });
    const done = await build(p);
    process.stdout.write(JSON.stringify({ compile: p.compile.sort(), remove: p.remove, fresh: p.fresh, failed: done.failed }));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

/** Runs the built entry point; its output and exit status. */
function runBuilt(): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--enable-source-maps', join(out, 'apps', 'demo', 'src', 'main.js')], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'runtime-build-'));
  out = join(root, 'out');
  write('tsconfig.json', JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'commonjs', esModuleInterop: true, experimentalDecorators: true, emitDecoratorMetadata: true, sourceMap: true, paths: { '@libs/*': ['./libs/*/src'] } } }));
  write('libs/greet/src/index.ts', "export { greet } from './greet';\n");
  write('libs/greet/src/greet.ts', "export const greet = (name: string): string => `hello ${name}`;\n");
  write('libs/greet/src/words.json', '{ "who": "world" }\n');
  write('libs/greet/src/greet.unit.spec.ts', 'this is not compiled: tests are not part of the build\n');
  write('apps/demo/src/main.ts', "import { greet } from '@libs/greet';\nimport words from '../../../libs/greet/src/words.json';\nconsole.log(greet(words.who));\n");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the runtime build', () => {
  it('compiles every source (path aliases resolved, JSON copied, tests left out), then finds nothing to do', () => {
    const first = rebuild();
    expect(first.compile).toEqual(['apps/demo/src/main.ts', 'libs/greet/src/greet.ts', 'libs/greet/src/index.ts', 'libs/greet/src/words.json']);
    expect(runBuilt()).toMatchObject({ status: 0, stdout: 'hello world\n' });
    expect(rebuild()).toMatchObject({ compile: [], remove: [], fresh: true });
  });

  it('recompiles a changed source, even one of the same size, and only that one', () => {
    rebuild();
    write('libs/greet/src/greet.ts', "export const greet = (name: string): string => `howdy ${name}`;\n");
    expect(rebuild()).toMatchObject({ compile: ['libs/greet/src/greet.ts'], fresh: false });
    expect(runBuilt().stdout).toBe('howdy world\n');
  });

  it('a source saved again unchanged is not recompiled', () => {
    rebuild();
    write('libs/greet/src/greet.ts', "export const greet = (name: string): string => `hello ${name}`;\n");
    expect(rebuild().compile).toEqual([]);
  });

  it('compiles a new source and removes the output of a deleted one, so a stale module is never loaded', () => {
    rebuild();
    write('libs/greet/src/index.ts', "export { greet } from './greet-loud';\n");
    write('libs/greet/src/greet-loud.ts', 'export const greet = (name: string): string => `HELLO ${name.toUpperCase()}`;\n');
    rmSync(join(root, 'libs/greet/src/greet.ts'));
    expect(rebuild()).toMatchObject({ compile: ['libs/greet/src/greet-loud.ts', 'libs/greet/src/index.ts'], remove: ['libs/greet/src/greet.ts'] });
    expect(existsSync(join(out, 'libs/greet/src/greet.js'))).toBe(false);
    expect(runBuilt().stdout).toBe('HELLO WORLD\n');
  });

  it('a source that does not compile fails where it is loaded, naming the file, and is retried once edited', () => {
    rebuild();
    write('libs/greet/src/greet.ts', 'export const greet = (name: string): string => {\n');
    expect(rebuild().failed).toEqual(['libs/greet/src/greet.ts']);
    const broken = runBuilt();
    expect(broken.status).not.toBe(0);
    expect(broken.stderr).toMatch(/SyntaxError: libs\/greet\/src\/greet\.ts does not compile/);
    write('libs/greet/src/greet.ts', "export const greet = (name: string): string => `hi ${name}`;\n");
    expect(rebuild()).toMatchObject({ compile: ['libs/greet/src/greet.ts'], failed: [] });
    expect(runBuilt().stdout).toBe('hi world\n');
  });

  it('a change to tsconfig.json rebuilds everything', () => {
    rebuild();
    write('tsconfig.json', JSON.stringify({ compilerOptions: { target: 'ES2020', module: 'commonjs', esModuleInterop: true, sourceMap: true, paths: { '@libs/*': ['./libs/*/src'] } } }));
    expect(rebuild().compile).toHaveLength(4);
  });

  it('scripts/run.mjs runs an entry point of the service from it: the CLI answers --help', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'run.mjs'), 'apps/cli/src/main.ts', '--help'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage: cli \[options\] \[command\]/);
    expect(r.stdout).toMatch(/\n {2}seed +demo data\n/);
  });
});
