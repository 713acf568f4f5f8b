/**
 * A fresh app outside the repository, as a new user makes one: an empty folder, `npm install`
 * of the packed tarballs with the engines and Vite at the versions the repository tests, and
 * nothing else — no aliases, no workspace, no config. Installed once per test run; each page
 * gets a folder of its own inside it (`apps/<name>/`), resolving packages from the shared
 * `node_modules` above it as any Vite app does.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packedTarballs, pinned, run } from './packages.ts';
import { onceInRun } from './run-once.ts';

/** The installed app's folder. */
export function freshApp(): Promise<string> {
  return onceInRun(
    'fresh-app',
    async (folder) => {
      const tarballs = await packedTarballs();
      writeFileSync(
        join(folder, 'package.json'),
        `${JSON.stringify({ name: 'fresh-app', private: true, type: 'module' }, null, 2)}\n`,
      );
      const engines = [
        'three',
        '@dimforge/rapier3d-compat',
        '@babylonjs/core',
        '@babylonjs/havok',
        'react',
        'react-dom',
        '@react-three/fiber',
        'vite',
        'typescript',
        '@types/react',
        '@types/react-dom',
        '@types/three',
      ];
      await run(
        'npm',
        [
          'install',
          '--no-audit',
          '--no-fund',
          '--prefer-offline',
          ...Object.values(tarballs),
          ...engines.map((name) => `${name}@${pinned(name)}`),
        ],
        folder,
      );
    },
    'installing the tarballs and the engines in a fresh app outside the repository (1–3 min)',
  );
}

/** Writes `files` into `apps/<name>/` of the fresh app and returns that folder. */
export async function appPage(name: string, files: Record<string, string>): Promise<string> {
  const page = join(await freshApp(), 'apps', name);
  mkdirSync(page, { recursive: true });
  for (const [file, content] of Object.entries(files)) writeFileSync(join(page, file), content);
  return page;
}
