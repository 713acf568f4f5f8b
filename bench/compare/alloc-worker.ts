/**
 * Measures one contender's bytes per frame with 1 000 interpolated bodies in a fresh process and
 * prints its cell as JSON on stdout: `alloc-worker.ts <contender>`. Started by
 * behaviour-bodies.ts under the parent's Node flags.
 */
import { allocationCell } from './behaviour-bodies.ts';
import { babylon, type ContenderId, prepare } from './contenders.ts';

// stdout carries the JSON only.
console.log = console.error;
babylon.Logger.LogLevels = babylon.Logger.WarningLogLevel | babylon.Logger.ErrorLogLevel;

const [id] = process.argv.slice(2) as [ContenderId];
await prepare();
process.stdout.write(JSON.stringify(await allocationCell(id)));
