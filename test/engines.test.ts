/**
 * One truth about Node versions (docs/packaging.md, "Node versions"): the root package.json's
 * `engines.node` is the Node the repository needs, the README says exactly that range, every
 * package the lockfile installs accepts every Node in it (so `npm install` prints no EBADENGINE
 * line on any of them), and the published packages need no more than the repository.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const json = <T>(path: string): T => JSON.parse(readFileSync(join(root, path), 'utf8')) as T;

interface Manifest {
  engines?: { node?: string };
}
interface Lockfile {
  packages: Record<string, Manifest & { version?: string }>;
}

const repository = json<Manifest>('package.json').engines?.node ?? '';

describe('Node versions', () => {
  it('the README states the root engines range, and this Node is inside it', () => {
    expect(semver.validRange(repository), 'package.json engines.node').not.toBeNull();
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain(`The repository needs Node \`${repository}\``);
    expect(semver.satisfies(process.version, repository), process.version).toBe(true);
  });

  it('every package in package-lock.json accepts every Node the repository allows', () => {
    const lock = json<Lockfile>('package-lock.json');
    const narrower: string[] = [];
    let checked = 0;
    for (const [path, entry] of Object.entries(lock.packages)) {
      const range = entry.engines?.node;
      if (path === '' || range === undefined) continue;
      checked++;
      if (!semver.subset(repository, range)) narrower.push(`${path}@${entry.version}: ${range}`);
    }
    expect(narrower).toEqual([]);
    // The lockfile records engines (npm 7+): an empty scan would prove nothing.
    expect(checked).toBeGreaterThan(20);
  });

  it.each(['core', 'three', 'babylon', 'react-three', 'colyseus'])(
    '@fixedtick/%s declares a run-time range that covers the repository range',
    (pkg) => {
      const range = json<Manifest>(`packages/${pkg}/package.json`).engines?.node;
      expect(semver.validRange(range ?? ''), `packages/${pkg} engines.node`).not.toBeNull();
      expect(semver.subset(repository, range as string)).toBe(true);
    },
  );
});
