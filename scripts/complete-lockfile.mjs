#!/usr/bin/env node
// The npm registry reachable from our build machines serves only the linux-x64 builds of
// packages that ship one native binary per platform (@swc/core-*, msgpackr-extract-*, ...). npm
// then leaves the other platforms' optional packages out of package-lock.json, and `npm ci`
// refuses the lock file ("Missing: ... from lock file"). This adds a lock entry for each such
// optional package (version from its parent, os/cpu/libc from its name), so `npm ci` accepts the
// lock everywhere and skips the packages that are not for the machine it runs on.
// Run it after `npm install`: node scripts/complete-lockfile.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;

const OS = ['darwin', 'linux', 'win32', 'freebsd', 'android', 'openharmony', 'sunos', 'aix', 'netbsd', 'openbsd'];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'mips64el', 'wasm32'];

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.find((p) => CPU.includes(p));
  const libc = parts.some((p) => p.startsWith('musl')) ? 'musl' : parts.some((p) => p === 'gnu' || p.startsWith('gnueabi')) ? 'glibc' : undefined;
  return { os, cpu, libc };
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${path ? `${path}/` : ''}node_modules/${name}`;
    if (packages[nested] || packages[`node_modules/${name}`]) continue;
    const { os, cpu, libc } = platformOf(name);
    if (!os || !cpu) continue; // not a per-platform binary package: leave it to npm
    const version = spec.replace(/^[\^~=]/, '');
    packages[`node_modules/${name}`] = { version, cpu: [cpu], ...(libc ? { libc: [libc] } : {}), optional: true, os: [os] };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
process.stdout.write(`complete-lockfile: added ${added} optional platform package(s)\n`);
