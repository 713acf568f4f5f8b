/**
 * Work done once per test run and shared by every test file that needs it (the examples build,
 * the packed tarballs, a fresh app's `npm install`), in the folder test/e2e/global-setup.ts
 * provides. The first caller takes a lock (an atomic `mkdir`) and does the work; the others wait
 * for its `done` marker — a file-system event, not a timer. Outside a vitest run with that
 * setup the work is done in a temporary folder of the caller's own.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, watch, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';

/** Resolves once one of `markers` exists in `dir` (watching the folder for it). */
export async function markerWritten(dir: string, markers: readonly string[]): Promise<void> {
  const stop = new AbortController();
  const events = watch(dir, { signal: stop.signal })[Symbol.asyncIterator]();
  // The first next() starts the watcher; the markers are checked only after that, so one
  // written in between is not missed.
  let next = events.next();
  try {
    while (!markers.some((m) => existsSync(m))) {
      if ((await next).done) return;
      next = events.next();
    }
  } catch (error) {
    if ((error as Error).name !== 'AbortError') throw error;
  } finally {
    next.catch(() => {}); // the pending read ends with an AbortError: expected
    stop.abort();
  }
}

/** The run-wide shared folder, or undefined outside a run with the global setup. */
export function sharedRunDir(): string | undefined {
  try {
    return inject('e2eBuildDir') || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs `work(folder)` once per test run under the name `name` and resolves to that folder
 * (`<shared>/<name>/out`); every later or concurrent caller gets the same folder. `what` says
 * what the work does, printed when it starts and ends (a long step does not run silent).
 */
export async function onceInRun(
  name: string,
  task: (folder: string) => Promise<void>,
  what = name,
): Promise<string> {
  const work = async (folder: string) => {
    const started = performance.now();
    console.info(`fixedtick tests: ${what}…`);
    await task(folder);
    console.info(
      `fixedtick tests: ${what}: done in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
  };
  const shared = sharedRunDir();
  if (shared === undefined) {
    const own = await mkdtemp(join(tmpdir(), `fixedtick-${name}-`));
    await work(own);
    return own;
  }
  const dir = join(shared, name);
  await mkdir(dir, { recursive: true });
  const out = join(dir, 'out');
  const done = join(dir, 'done');
  const failed = join(dir, 'failed');
  for (;;) {
    if (existsSync(done)) return out;
    if (existsSync(failed)) {
      throw new Error(`the shared "${name}" step failed: ${await readFile(failed, 'utf8')}`);
    }
    try {
      await mkdir(join(dir, 'lock'));
    } catch {
      await markerWritten(dir, [done, failed]);
      continue;
    }
    try {
      await mkdir(out, { recursive: true });
      await work(out);
      await writeFile(done, '');
      return out;
    } catch (error) {
      await writeFile(failed, String((error as Error).stack ?? error));
      throw error;
    }
  }
}
