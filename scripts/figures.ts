/**
 * `npm run figures`: regenerates docs/figures/*.svg from the real library (see
 * scripts/lib/figures.ts). Commit the result: the guides embed these files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderFigures } from './lib/figures.ts';

const outDir = fileURLToPath(new URL('../docs/figures', import.meta.url));
mkdirSync(outDir, { recursive: true });
for (const [name, svg] of Object.entries(renderFigures())) {
  writeFileSync(join(outDir, name), svg);
  console.log(`figures: wrote docs/figures/${name} (${svg.length} bytes)`);
}
