/**
 * Vitest global setup for the end-to-end tests: one temporary folder per test run in which the
 * first e2e file to need the examples builds them all, once, for every other e2e file (see
 * `startExamples` in harness.ts). A run without e2e files only creates and removes the folder.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Folder shared by the e2e files of one run: the examples are built into it once. */
    e2eBuildDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'fixedtick-e2e-'));
  project.provide('e2eBuildDir', dir);
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
