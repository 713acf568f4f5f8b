/**
 * Where the end-to-end tests find a Chromium: `CHROMIUM_PATH` when set, else the first of the
 * usual install locations on Linux, macOS and Windows that exists. Without one, every e2e file
 * fails with one line saying how to get one ({@link MISSING_CHROMIUM}), not Playwright's
 * "executable doesn't exist".
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The one line an e2e run without Chromium fails with. */
export const MISSING_CHROMIUM =
  'No Chromium found for the end-to-end tests: install it (Debian/Ubuntu: `apt-get install chromium`; macOS: `brew install --cask chromium`; Windows: install Chrome) or set CHROMIUM_PATH to a Chromium or Chrome executable.';

/** The usual install locations on `platform`, most likely first. */
export function usualChromiumPaths(
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
): readonly string[] {
  if (platform === 'darwin') {
    return [
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      '/opt/homebrew/bin/chromium',
    ];
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter(
      (dir): dir is string => dir !== undefined,
    );
    return roots.flatMap((dir) => [
      join(dir, 'Chromium', 'Application', 'chrome.exe'),
      join(dir, 'Google', 'Chrome', 'Application', 'chrome.exe'),
      join(dir, 'Microsoft', 'Edge', 'Application', 'msedge.exe'),
    ]);
  }
  return [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/snap/bin/chromium',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
  ];
}

/**
 * The Chromium to launch: `CHROMIUM_PATH` when it is set (an error naming it when that file is
 * missing), else the first usual path that exists; throws {@link MISSING_CHROMIUM} when none does.
 */
export function findChromium(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  exists: (path: string) => boolean = existsSync,
): string {
  const chosen = env.CHROMIUM_PATH;
  if (chosen !== undefined && chosen !== '') {
    if (!exists(chosen)) {
      throw new Error(
        `CHROMIUM_PATH is ${chosen}, which does not exist: point it at a Chromium or Chrome executable, or unset it to try the usual install paths.`,
      );
    }
    return chosen;
  }
  const found = usualChromiumPaths(platform, env).find(exists);
  if (found === undefined) throw new Error(MISSING_CHROMIUM);
  return found;
}
