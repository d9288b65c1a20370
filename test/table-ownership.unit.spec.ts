import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Table ownership (issue 30, part 1): the owner of a table is the concern whose migration creates
 * it (`libs/<concern>/src/migrations`, or `projections/<concern>/migrations` for the read models
 * projections build for that concern). Production code of another library that names the table in
 * `FROM`/`JOIN` (or writes it: `INTO`/`UPDATE`) breaks the rule, unless the edge is in DATA_EDGES
 * below, with its reason, and the concern may import the owner (`CONCERN_IMPORTS` of
 * `.dependency-cruiser.cjs`), so the edge is one the layout shows.
 */
const root = join(__dirname, '..');

/**
 * The foreign reads that are allowed, consumer → owner → tables, each with why. Anything else is a
 * new data edge between concerns: a design decision, made here on purpose (and preferably through
 * the owner's index instead: `read-model/*.facts.ts`).
 */
export const DATA_EDGES: Record<string, Record<string, { tables: string[]; why: string; importable?: false }>> = {
  // Tenancy's rows are read through libs/tenancy (`read-model/tenancy.facts.ts`, BrandAccess, brandOwners) except
  // where a statement needs them in the same statement or transaction as the consumer's own rows:
  auth: {
    tenancy: {
      tables: ['organizations', 'clients'],
      why: 'a key or OAuth client is created for an existing organisation/client (checked in the insert); tenancy stands on auth (principals), so auth cannot import it',
      importable: false,
    },
  },
  'rate-limit': {
    tenancy: {
      tables: ['organizations'],
      why: "the organisation's tier, read with its quota usage in one statement (assertRoom) and inside the transaction that locks the usage rows (reserve): every metered request's hot path",
    },
  },
  visibility: {
    analysis: {
      tables: ['analysis_runs', 'analysis_results'],
      why: "the latest complete run's day (analysis's read model); with a market filter, the newest such run that asked for that market (EXISTS on its results)",
    },
  },
  channels: {
    tenancy: {
      tables: ['brands'],
      why: 'the built-in AI-referral channel is made, in one INSERT … SELECT (ensureAiReferrals), for the clients whose brands have referral visits',
    },
    'agent-analytics': { tables: ['ai_referral_daily'], why: 'the AI-referral channel is made, in one INSERT … SELECT, for the clients whose brands have referral visits' },
  },
  detectors: {
    analysis: { tables: ['analysis_runs'], why: 'detectors run over the analysed answers of a completed run' },
    opportunities: { tables: ['opportunities'], why: 'a pass looks up the open and verifying opportunities it may move' },
    'page-audits': { tables: ['page_audits'], why: "the page pass picks the completed audits it has not judged (NOT EXISTS on its own page_gap_checks, one statement)" },
  },
};

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? (name === 'node_modules' ? [] : walk(path)) : [path];
  });

/** The concern a file belongs to: `libs/<concern>/…`, or `projections/<concern>/…` (a concern's read models). */
export function concernOf(file: string): string | null {
  const m = /^libs\/([^/]+)\/|^projections\/([^/]+)\//.exec(file);
  return m ? (m[1] ?? m[2]) : null;
}

/** Every table a migration creates, with its owner. */
export function tableOwners(files: { path: string; source: string }[]): Map<string, string> {
  const owners = new Map<string, string>();
  for (const f of files) {
    if (!/\/migrations\/[^/]+\.ts$/.test(f.path) || f.path.endsWith('.spec.ts')) continue;
    for (const m of f.source.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?"?([a-z_0-9]+)"?/g)) owners.set(m[1], concernOf(f.path)!);
  }
  return owners;
}

/** The statements on a table of another concern that DATA_EDGES does not allow, as `file → table (owner)`. */
export function foreignTableUses(files: { path: string; source: string }[], owners: Map<string, string>, allowed = DATA_EDGES): string[] {
  const found = new Set<string>();
  for (const f of files) {
    if (!f.path.endsWith('.ts') || /\.spec\.ts$|\/migrations\/|\/testing\//.test(f.path)) continue;
    const concern = concernOf(f.path);
    for (const m of f.source.matchAll(/\b(?:FROM|JOIN|UPDATE|INTO)\s+"?([a-z_][a-z_0-9]*)"?/gi)) {
      const owner = owners.get(m[1]);
      if (owner === undefined || owner === concern) continue;
      if (concern !== null && allowed[concern]?.[owner]?.tables.includes(m[1])) continue;
      found.add(`${f.path} → ${m[1]} (${owner})`);
    }
  }
  return [...found].sort();
}

const sources = () =>
  [...walk(join(root, 'libs')), ...walk(join(root, 'projections'))]
    .filter((p) => p.endsWith('.ts'))
    .map((p) => ({ path: relative(root, p).split('\\').join('/'), source: readFileSync(p, 'utf8') }));

describe('table ownership', () => {
  const files = sources();
  const owners = tableOwners(files);

  it('finds the owners of the tables from the migrations', () => {
    expect(owners.get('brands')).toBe('tenancy');
    expect(owners.get('page_audits')).toBe('page-audits');
    expect(owners.get('answer_daily_rollups')).toBe('visibility');
    expect(owners.size).toBeGreaterThan(50);
  });

  it('no library names another concern\'s table in SQL outside the documented edges', () => {
    expect(foreignTableUses(files, owners)).toEqual([]);
  });

  it('a wrong change fails: a FROM or JOIN on a foreign table outside its owner', () => {
    const wrong = [
      { path: 'libs/visibility/src/read-model/zz-probe.ts', source: 'export const sql = `SELECT count(*) FROM page_audits WHERE brand_id = $1`;' },
      { path: 'libs/citations/src/zz-probe.ts', source: 'export const sql = `SELECT 1 FROM citation_records c JOIN brands b ON b.id = c.brand_id`;' },
    ];
    expect(foreignTableUses(wrong, owners)).toEqual(['libs/citations/src/zz-probe.ts → brands (tenancy)', 'libs/visibility/src/read-model/zz-probe.ts → page_audits (page-audits)']);
    // The owner itself, a spec, a migration or a test kit may.
    expect(foreignTableUses([{ path: 'libs/page-audits/src/zz.ts', source: 'SELECT 1 FROM page_audits' }, { path: 'libs/visibility/src/zz.int.spec.ts', source: 'SELECT 1 FROM page_audits' }], owners)).toEqual([]);
  });

  it('every documented data edge is one the concern may import (CONCERN_IMPORTS), and is used', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const config = require('../.dependency-cruiser.cjs') as { forbidden: { name: string; to: { pathNot?: string } }[] };
    const unused: string[] = [];
    for (const [consumer, edges] of Object.entries(DATA_EDGES)) {
      const rule = config.forbidden.find((r) => r.name === `concern-imports:${consumer}` || r.name === `platform-imports:${consumer}`);
      for (const [owner, edge] of Object.entries(edges)) {
        const mayImport = rule !== undefined && new RegExp(rule.to.pathNot!).test(`libs/${owner}/`);
        expect([consumer, owner, mayImport]).toEqual([consumer, owner, edge.importable !== false]);
        for (const table of edge.tables) {
          const uses = files.some((f) => concernOf(f.path) === consumer && !/\.spec\.ts$|\/migrations\//.test(f.path) && new RegExp(`\\b(FROM|JOIN|UPDATE|INTO)\\s+"?${table}\\b`, 'i').test(f.source));
          if (!uses) unused.push(`${consumer} → ${table}`);
        }
      }
    }
    expect(unused).toEqual([]);
  });
});
