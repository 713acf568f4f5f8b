/**
 * Runs one speed pair of the comparison in a fresh process and prints its cell as JSON on
 * stdout: `speed-worker.ts <overhead|interpolation|havok> <contender>`. Started by speed.ts under
 * the parent's Node flags.
 */
import { babylon, type ContenderId, prepare } from './contenders.ts';
import { type PairKind, runPair } from './speed.ts';

// stdout carries the JSON only.
console.log = console.error;
babylon.Logger.LogLevels = babylon.Logger.WarningLogLevel | babylon.Logger.ErrorLogLevel;

const [kind, id] = process.argv.slice(2) as [PairKind, ContenderId];
await prepare();
const cell = await runPair(kind, id);
process.stdout.write(JSON.stringify(cell));
