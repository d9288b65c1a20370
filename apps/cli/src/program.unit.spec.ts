import type { Command } from 'commander';
import { COMMAND_GROUPS, baseProgram, buildProgram, requestedCommand, type CommandDeps } from './program';

const deps: CommandDeps = { run: async () => undefined, fail: () => undefined, json: () => false };

/** Every command file registered, in order: the program as it was before files were loaded on demand. */
async function everyCommand(): Promise<Command> {
  const program = baseProgram();
  for (const group of COMMAND_GROUPS) await group.register(program, deps);
  return program;
}

const described = (program: Command) => program.commands.map((c) => [c.name(), c.description()]);

// Loading every command file loads the whole service (a few seconds on a loaded machine).
jest.setTimeout(60_000);

describe('the CLI program', () => {
  it('lists every command with its description on --help without loading a command file, as the full program does', async () => {
    const full = await everyCommand();
    const listed = await buildProgram(['--help'], deps);
    expect(listed.helpInformation()).toBe(full.helpInformation());
    expect(described(listed)).toEqual(described(full));
    // Names only: no command file was registered.
    expect(listed.commands.every((c) => c.commands.length === 0 && c.options.length === 0)).toBe(true);
  });

  it('each command file registers exactly the commands, and descriptions, its entry declares', async () => {
    for (const group of COMMAND_GROUPS) {
      const program = baseProgram();
      await group.register(program, deps);
      expect(Object.fromEntries(described(program))).toEqual(group.commands);
    }
  });

  it('a command asked for gets its real subcommands and options, from every file that adds to it', async () => {
    const brand = (await buildProgram(['brand', 'schedule', '--brand', '3'], deps)).commands.find((c) => c.name() === 'brand')!;
    // tenancy.command.ts adds create/alias/domain, prompts.command.ts adds schedule.
    expect(brand.commands.map((c) => c.name())).toEqual(expect.arrayContaining(['create', 'alias', 'domain', 'schedule']));
    const key = (await buildProgram(['--json', 'key', 'create'], deps)).commands.find((c) => c.name() === 'key')!;
    expect(key.commands.find((c) => c.name() === 'create')!.options.map((o) => o.long)).toContain('--scopes');
  });

  it('finds the command asked for past global options and in `help <command>`', () => {
    expect(requestedCommand(['--json', 'key', 'create', '--org', '1'])).toBe('key');
    expect(requestedCommand(['help', 'brand'])).toBe('brand');
    expect(requestedCommand(['--help'])).toBeNull();
    expect(requestedCommand([])).toBeNull();
  });
});
