#!/usr/bin/env node
// Whether this Node.js is one package.json's `engines.node` admits. Run before anything else
// (.ci/run, scripts/run.mjs): on an unsupported Node it prints one line and exits 1, instead of
// failing later with an error about ES modules or a missing API.
//   node scripts/check-node.mjs        (silent when supported)
// The range syntax understood is the one engines fields use: comparators (>=, >, <=, <, =, a bare
// version, ^, ~, x wildcards) joined by spaces (all must hold) and `||` (any alternative).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** [major, minor, patch] of "20.19", "v20.19.1", "20.x" (a missing or wildcard part is 0). */
function parse(version) {
  const parts = version.replace(/^v/, '').split('.');
  return [0, 1, 2].map((i) => (parts[i] === undefined || /^[x*]$/i.test(parts[i]) ? 0 : Number.parseInt(parts[i], 10)));
}

function compare(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/** Whether `version` satisfies one comparator of a range. */
function satisfiesComparator(version, comparator) {
  const m = /^(>=|<=|>|<|=|\^|~)?\s*v?([0-9x*]+(?:\.[0-9x*]+){0,2})$/i.exec(comparator);
  if (!m) throw new Error(`engines.node: cannot read "${comparator}"`);
  const [, op = '=', text] = m;
  const wanted = parse(text);
  const given = parse(version);
  const c = compare(given, wanted);
  const given0 = text.split('.').length;
  switch (op) {
    case '>=':
      return c >= 0;
    case '>':
      return c > 0;
    case '<=':
      return c <= 0;
    case '<':
      return c < 0;
    case '^':
      return c >= 0 && (wanted[0] !== 0 ? given[0] === wanted[0] : given[1] === wanted[1]);
    case '~':
      return c >= 0 && given[0] === wanted[0] && (given0 < 2 || given[1] === wanted[1]);
    default: {
      // "20", "20.x", "20.19": every part given must match.
      const fixed = text.split('.').filter((p) => !/^[x*]$/i.test(p)).length;
      return given.slice(0, fixed).every((n, i) => n === wanted[i]);
    }
  }
}

/** Whether `version` (e.g. process.version) satisfies the engines range. */
export function nodeSatisfies(range, version) {
  return range.split('||').some((alternative) => {
    const comparators = alternative
      .trim()
      .replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean);
    return comparators.length === 0 || comparators.every((c) => satisfiesComparator(version, c));
  });
}

/** package.json's engines.node. */
export function enginesNode(packageJsonUrl = new URL('../package.json', import.meta.url)) {
  return JSON.parse(readFileSync(packageJsonUrl, 'utf8')).engines?.node ?? '*';
}

/** One line naming the problem, or null when this Node is supported. */
export function unsupportedNode(version = process.version, range = enginesNode()) {
  if (range === '*' || nodeSatisfies(range, version)) return null;
  return `unsupported Node.js ${version}: this project needs Node ${range} (package.json "engines"); install a supported version, e.g. the current LTS`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problem = unsupportedNode();
  if (problem) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
}
