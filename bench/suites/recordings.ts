/**
 * Refusing hostile recording text, beside loading a valid recording of the same size
 * (docs/input-and-determinism.md#limits): for each shape and size, the median of several
 * interleaved rounds of `InputRecording.fromJSON(text)` (hostile: until it throws; valid: the
 * whole load), in ms, and the ratio hostile / valid. Refusal must stay linear in the size (the
 * ms per MB flat across sizes) and cost at most what a valid load of the same size costs.
 */
import { InputRecording } from '../../packages/core/src/entries/input.ts';

const MB = 1024 * 1024;
const SIZES_MB = [5, 10, 20];
const ROUNDS = 5;

const repeated = (unit: string, chars: number): string =>
  unit.repeat(Math.floor(chars / unit.length));

const HEADER =
  '{"format":"fixedtick-input","version":1,"fixedDelta":0.016666666666666666,"length":1000000,"start":{"held":[],"pointer":[0,0]},"events":[';

/** A valid recording of about `chars` characters: moves and key presses, every tick. */
function valid(chars: number): string {
  const events: string[] = [];
  let length = HEADER.length;
  for (let tick = 0; length < chars; tick++) {
    const event =
      tick % 4 === 0
        ? `[${tick},"press","KeyW"]`
        : tick % 4 === 2
          ? `[${tick},"release","KeyW"]`
          : `[${tick},"move",${(tick * 0.37) % 1280},${(tick * 0.61) % 720}]`;
    events.push(event);
    length += event.length + 1;
  }
  return `${HEADER.replace('1000000', String(events.length + 1))}${events.join(',')}]}`;
}

const SHAPES: Record<string, (chars: number) => string> = {
  nestedArrays: (n) => `${repeated('[', n / 2)}${repeated(']', n / 2)}`,
  unclosedArrays: (n) => repeated('[', n),
  nestedObjects: (n) => `${repeated('{"a":', n / 2)}1${repeated('}', n / 2)}`,
  manyMembers: (n) => `{${Array.from({ length: n / 12 }, (_, i) => `"k${i}":0`).join(',')}}`,
  flatArray: (n) => `${HEADER}${repeated('0,', n)}0]}`,
  oneString: (n) => `"${'a'.repeat(n)}"`,
  manyShortEvents: (n) => `${HEADER}${repeated('[0,"move",1,2],', n)}[0,"move",1,2]]}`,
};

function time(text: string): number {
  const t0 = process.hrtime.bigint();
  try {
    InputRecording.fromJSON(text);
  } catch {
    // refused: the time to refuse is what is measured
  }
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x: number): number => Math.round(x * 100) / 100;

export default function recordings(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const mb of SIZES_MB) {
    const good = valid(mb * MB);
    const row: Record<string, unknown> = {};
    for (const [name, make] of Object.entries(SHAPES)) {
      const bad = make(mb * MB);
      const goodMs: number[] = [];
      const badMs: number[] = [];
      time(good);
      time(bad);
      for (let r = 0; r < ROUNDS; r++) {
        goodMs.push(time(good));
        badMs.push(time(bad));
      }
      const ratios = goodMs.map((g, i) => badMs[i] / g);
      row[name] = {
        refuseMs: round(median(badMs)),
        validMs: round(median(goodMs)),
        msPerMB: round(median(badMs) / mb),
        ratio: {
          min: round(Math.min(...ratios)),
          median: round(median(ratios)),
          max: round(Math.max(...ratios)),
        },
      };
    }
    out[`${mb}MB`] = row;
  }
  return out;
}
