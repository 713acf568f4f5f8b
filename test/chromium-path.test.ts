/**
 * How the end-to-end tests find Chromium (test/e2e/chromium-path.ts): `CHROMIUM_PATH` first,
 * then the usual paths of each platform, and one line saying what to do when there is none.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findChromium, MISSING_CHROMIUM, usualChromiumPaths } from './e2e/chromium-path.ts';

const only =
  (...present: string[]) =>
  (path: string) =>
    present.includes(path);

describe('findChromium', () => {
  it('takes CHROMIUM_PATH when it is set and exists', () => {
    const env = { CHROMIUM_PATH: '/opt/my/chrome' };
    expect(findChromium('linux', env, only('/opt/my/chrome', '/usr/bin/chromium'))).toBe(
      '/opt/my/chrome',
    );
  });

  it('names CHROMIUM_PATH when it points at nothing', () => {
    expect(() => findChromium('linux', { CHROMIUM_PATH: '/nope' }, only())).toThrow(
      'CHROMIUM_PATH is /nope, which does not exist: point it at a Chromium or Chrome executable, or unset it to try the usual install paths.',
    );
  });

  it('tries the usual Linux, macOS and Windows paths, in order', () => {
    expect(findChromium('linux', {}, only('/usr/bin/google-chrome', '/snap/bin/chromium'))).toBe(
      '/snap/bin/chromium',
    );
    const mac = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    expect(findChromium('darwin', {}, only(mac))).toBe(mac);
    const env = {
      PROGRAMFILES: 'C:\\Program Files',
      LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local',
    };
    const chrome = join(
      'C:\\Users\\me\\AppData\\Local',
      'Google',
      'Chrome',
      'Application',
      'chrome.exe',
    );
    expect(findChromium('win32', env, only(chrome))).toBe(chrome);
    expect(usualChromiumPaths('win32', env)).toHaveLength(6);
  });

  it('fails with one line saying how to install it or set CHROMIUM_PATH', () => {
    expect(() => findChromium('linux', {}, only())).toThrow(MISSING_CHROMIUM);
    expect(MISSING_CHROMIUM).not.toContain('\n');
    expect(MISSING_CHROMIUM).toContain('apt-get install chromium');
    expect(MISSING_CHROMIUM).toContain('CHROMIUM_PATH');
  });
});
