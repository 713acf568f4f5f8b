import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
const root = process.argv[2];
const r = await build({ stdin: { contents: `export { FixedLoop, presets, rafDriver } from '${root}/packages/core/src/index.ts';`, resolveDir: root, loader: 'ts' }, bundle: true, minify: true, format: 'esm', write: false, logLevel: 'silent', target: 'es2022', treeShaking: true });
console.log('loop-only', (gzipSync(r.outputFiles[0].contents).length / 1000).toFixed(3), 'kB');
