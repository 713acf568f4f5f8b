/**
 * The docs build's guarantees: the API reference covers every public entry point of every
 * package, and the doc-comment check (scripts/lib/doc-check.ts, run by `npm run docs`) flags a
 * public symbol without a doc comment while accepting the documented forms.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Application, LogLevel } from 'typedoc';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { undocumentedSymbols } from '../scripts/lib/doc-check.ts';
import { DOCUMENTED_PACKAGES, publicEntries } from '../scripts/lib/entries.ts';
import { renderFigures } from '../scripts/lib/figures.ts';
import { docSnippet } from './support/doc-snippets.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('API reference coverage', () => {
  it('documents every package and every subpath export, named as users import it', () => {
    const documented = publicEntries()
      .map((e) => e.specifier)
      .sort();
    const exported: string[] = [];
    for (const pkg of DOCUMENTED_PACKAGES) {
      const manifest = JSON.parse(
        readFileSync(join(root, 'packages', pkg, 'package.json'), 'utf8'),
      ) as { name: string; exports: Record<string, unknown> };
      for (const subpath of Object.keys(manifest.exports)) {
        if (subpath === './package.json') continue;
        exported.push(subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`);
      }
    }
    expect(documented).toEqual(exported.sort());
    expect(documented).toEqual(
      expect.arrayContaining([
        '@fixedtick/core',
        '@fixedtick/core/debug',
        '@fixedtick/three',
        '@fixedtick/babylon',
      ]),
    );
  });
});

describe('doc-comment check', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fixedtick-doccheck-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lists exactly the public symbols without a doc comment', async () => {
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: '@fixedtick/fixture', version: '0.0.0' }),
    );
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          strict: true,
        },
        include: ['index.ts'],
      }),
    );
    writeFileSync(
      join(dir, 'index.ts'),
      `/** Documented. */
export function documented(): number { return 1; }
export function bare(): number { return 2; }
/** A class. */
export class Box {
  #v = 0;
  /** The value; documenting the getter documents the setter. */
  get value(): number { return this.#v; }
  set value(v: number) { this.#v = v; }
  /** Documented method. */
  grow(): void {}
  shrink(): void {}
}
/** An options shape. */
export interface Shape {
  /** Documented. */
  size: number;
  colour: string;
}
/** A constant whose literal members are covered by this comment. */
export const presets = { small: { size: 1 }, large: { size: 9 } };
export type Loose = { a: number };
`,
    );
    const app = await Application.bootstrap({
      entryPoints: [join(dir, 'index.ts')],
      tsconfig: join(dir, 'tsconfig.json'),
      logLevel: LogLevel.Error,
      skipErrorChecking: true,
    });
    const project = await app.convert();
    expect(project).toBeDefined();
    const missing = undocumentedSymbols(project as NonNullable<typeof project>).map(
      (m) => m.split(' ')[0],
    );
    expect(missing).toEqual(['Box.shrink', 'Loose', 'Loose.a', 'Shape.colour', 'bare']);
  }, 60_000);
});

describe('figures (docs/figures, embedded by the guides)', () => {
  const figures = renderFigures();

  it.each(Object.keys(figures))('committed %s is what `npm run figures` generates now', (name) => {
    const committed = readFileSync(join(root, 'docs', 'figures', name), 'utf8');
    expect(committed, `docs/figures/${name} is stale: run npm run figures`).toBe(figures[name]);
  });

  it('shows the reference numbers of docs/guarantees.md, computed by the library', () => {
    expect(figures['jump-peak.svg']).toContain('×dt: 90.0 px at 30 Hz, 98.8 px at 240 Hz');
    expect(figures['jump-peak.svg']).toContain('No dt and fixed steps: 95.0 px at every rate');
    const alphas = [...figures['steps-alpha.svg'].matchAll(/>(\.\d\d)</g)].map((m) => m[1]);
    expect(alphas.slice(0, 6)).toEqual(['.42', '.83', '.25', '.67', '.08', '.50']);
    expect(figures['steps-alpha.svg']).toContain('24 frames, 10 steps');
    expect(figures['clamps.svg']).toContain('60 steps · 1000 ms run · 0 ms dropped');
    expect(figures['clamps.svg']).toContain('15 steps · 250 ms run · 750 ms dropped');
    expect(figures['clamps.svg']).toContain('8 steps · 133 ms run · 867 ms dropped');
  });
});

/** Type errors of in-memory `files` (path → source) compiled with the repository's tsconfig. */
function typeErrors(files: Map<string, string>): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  ) as ts.ParsedCommandLine;
  const host = ts.createCompilerHost(config.options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (f) => files.get(f) ?? readFile(f);
  host.fileExists = (f) => files.has(f) || fileExists(f);
  const program = ts.createProgram([...files.keys()], { ...config.options, noEmit: true }, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file !== undefined && files.has(d.file.fileName))
    .map((d) => `${d.file?.fileName}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('README quick starts', () => {
  /** What each quick start assumes the reader already has. */
  const preludes: Record<(typeof DOCUMENTED_PACKAGES)[number], string> = {
    core: 'declare function draw(y: number): void;\n',
    three: [
      "import type { Mesh, PerspectiveCamera, Scene, WebGLRenderer } from 'three';",
      'declare const renderer: WebGLRenderer;',
      'declare const scene: Scene;',
      'declare const camera: PerspectiveCamera;',
      'declare const cube: Mesh;',
      '',
    ].join('\n'),
    babylon: [
      "import type { Mesh } from '@babylonjs/core/Meshes/mesh.js';",
      "import type { Vector3 } from '@babylonjs/core/Maths/math.vector.js';",
      "import type { Scene } from '@babylonjs/core/scene.js';",
      'declare const scene: Scene;',
      'declare const player: Mesh;',
      'declare const push: Vector3;',
      '',
    ].join('\n'),
    'react-three': [
      "import { Canvas } from '@react-three/fiber';",
      "import { useRef } from 'react';",
      "import { createRoot } from 'react-dom/client';",
      "import type { Mesh } from 'three';",
      'declare const el: HTMLElement;',
      '',
    ].join('\n'),
    colyseus: [
      "import type { TickInput } from '@fixedtick/core/net';",
      'declare function movePlayer(id: string, input: TickInput, dt: number): void;',
      '',
    ].join('\n'),
  };

  it('type-check against the real packages', () => {
    const files = new Map<string, string>();
    for (const pkg of DOCUMENTED_PACKAGES) {
      const readme = readFileSync(join(root, 'packages', pkg, 'README.md'), 'utf8');
      const block = /## Quick start[\s\S]*?```(tsx?)\n([\s\S]*?)```/.exec(readme);
      const [, lang, code] = block ?? ['', 'ts', ''];
      files.set(
        join(root, 'test', `.quick-start-${pkg}.${lang}`),
        `${preludes[pkg]}${code}\nexport {};\n`,
      );
    }
    expect(typeErrors(files)).toEqual([]);
  }, 120_000);
});

describe('getting-started pages (docs/three.md, rapier.md, babylon.md, react-three.md)', () => {
  it('type-check as they are, against the real packages and three/Babylon/R3F types', () => {
    const files = new Map<string, string>();
    for (const [doc, file] of [
      ['three', 'main.ts'],
      ['rapier', 'main.ts'],
      ['babylon', 'main.ts'],
      ['react-three', 'main.tsx'],
    ]) {
      // Vite's client types give the `?url` import its type, as in a Vite app.
      const code = `/// <reference types="vite/client" />\n${docSnippet(`${doc}.md`, file)}`;
      const ext = file.endsWith('.tsx') ? 'tsx' : 'ts';
      files.set(join(root, 'test', `.getting-started-${doc}.${ext}`), `${code}\nexport {};\n`);
    }
    expect(typeErrors(files)).toEqual([]);
  }, 120_000);
});
