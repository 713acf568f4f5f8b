/**
 * A recording that cannot be used: not JSON, a version this library does not read, text longer
 * or nested deeper than any recording, or data that does not hold together. `path` says where
 * (`events[3][0]`).
 */
export class InputRecordingError extends Error {
  /** Where in the recording the problem is (`''` for the whole document). */
  readonly path: string;

  /** @param path where; @param problem what is wrong there. */
  constructor(path: string, problem: string) {
    super(`fixedtick: bad input recording${path === '' ? '' : ` at ${path}`}: ${problem}`);
    this.name = 'InputRecordingError';
    this.path = path;
  }
}
