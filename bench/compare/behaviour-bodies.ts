/**
 * Behaviour scenarios with bodies: teleport smear, and bytes allocated per frame.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { allocationPerCall } from '../lib.ts';
import { type BodyRig, bodyRig } from './bodies.ts';
import { CONTENDERS, type ContenderId } from './contenders.ts';
import { fixedtickHavokRig, type HavokRig, lockstepRig } from './havok.ts';
import { type Cell, na, type Row } from './report-types.ts';

const TELEPORT_X = 100;

type AnyRig = BodyRig | HavokRig;

/**
 * Index of the first frame after a warm-up second that runs no step, found on a twin rig (the
 * rigs are deterministic: same frames, same steps).
 */
async function zeroStepFrame(make: () => Promise<AnyRig | string>): Promise<number> {
  const twin = await make();
  if (typeof twin === 'string') throw new Error(twin);
  try {
    for (let i = 0; i < 144; i++) twin.frame();
    for (let i = 144; i < 288; i++) {
      twin.frame();
      if (twin.lastSteps === 0) return i;
    }
    throw new Error('bench: no 0-step frame found');
  } finally {
    twin.dispose();
  }
}

async function smearCell(
  make: () => Promise<AnyRig | string>,
  position: (rig: AnyRig) => number,
  note: string,
): Promise<Cell> {
  const rig = await make();
  if (typeof rig === 'string') return na(rig);
  try {
    const index = await zeroStepFrame(make);
    for (let i = 0; i < index; i++) rig.frame();
    rig.teleport(TELEPORT_X);
    rig.frame();
    const steps = rig.lastSteps;
    const smear = Math.abs(position(rig) - TELEPORT_X);
    return {
      value: `${smear.toFixed(1)} px`,
      raw: { smear, frameSteps: steps },
      note: `${note}; the teleport frame ran ${steps} steps`,
    };
  } finally {
    rig.dispose();
  }
}

/** Teleport in a frame with no step: distance of the rendered pose from the target. */
export async function teleport(): Promise<Row> {
  const cells: Row['cells'] = {};
  const notes: Record<ContenderId, string> = {
    fixedtick: 'ThreeFixedLoop: position written outside the fixed step (the adapter rule)',
    mainloop: 'user prev/curr state: current position written, as users move things',
    thing: 'documented VectorState.reset(value)',
    three: 'user prev/curr state: current position written, as users move things',
    babylon:
      'mesh.position written with body.disablePreStep = false (Babylon docs); no interpolation at all',
    cannon: 'body.position written (cannon-es has no teleport API)',
  };
  for (const { id } of CONTENDERS) {
    cells[id] =
      id === 'babylon'
        ? await smearCell(
            () => lockstepRig(1, false),
            (rig) => (rig as HavokRig).spheres[0].position.x,
            notes[id],
          )
        : await smearCell(
            () => bodyRig(id, 1),
            (rig) => (rig as BodyRig).objects[0].position.x,
            notes[id],
          );
  }
  const ft = cells.fixedtick?.raw as { smear: number; frameSteps: number } | undefined;
  return {
    id: 'teleport',
    title: 'Teleport in a frame with no step: smear',
    how: '60 Hz steps, 144 fps; a body is moved 100 units away just before a frame that runs no step; distance between the rendered position and the target after that frame. Each moves the body the way its users do: mainloop.js and the three.js loop hold the poses in user code and the position is written (writing the previous pose too, by hand, would avoid the smear); thi.ng through its documented `reset()`; Babylon by moving the mesh with pre-step on; cannon-es by writing `body.position` (it has no teleport call).',
    expected: '0.0 px',
    fixedtickCorrect: ft !== undefined && ft.smear < 1e-9 && ft.frameSteps === 0,
    cells,
  };
}

/** Bytes allocated per frame (60 Hz steps, 144 fps) with 1 000 bodies. */
export async function allocation(): Promise<Row[]> {
  const cells: Row['cells'] = {};
  for (const { id } of CONTENDERS) {
    if (id === 'babylon') {
      cells[id] = na('see the Havok row below (its frame is scene.render())');
      continue;
    }
    // Each contender in a fresh process, as the speed pairs are: in one process the rigs share
    // three.js and the harness, and what V8 compiled for one contender (inlined or not) changes
    // what the next one boxes.
    cells[id] = allocationInChild(id);
  }
  const havokCells: Row['cells'] = {};
  for (const { id } of CONTENDERS) {
    if (id !== 'fixedtick' && id !== 'babylon') {
      havokCells[id] = na('no Havok');
      continue;
    }
    const rig = id === 'babylon' ? await lockstepRig(1000) : await fixedtickHavokRig(1000);
    if (typeof rig === 'string') {
      havokCells[id] = na(rig);
      continue;
    }
    try {
      const a = allocationPerCall(() => rig.frame(), 1440, 720);
      havokCells[id] = {
        value: `${Math.round(a.bytesPerCall)} B`,
        raw: a,
        note:
          id === 'babylon'
            ? 'scene.render() + Havok step, no interpolation'
            : 'BabylonFixedLoop: scene.render() + Havok step + interpolation',
      };
    } finally {
      rig.dispose();
    }
  }
  const ft = cells.fixedtick?.raw as { bytesPerCall: number } | undefined;
  return [
    {
      id: 'alloc-1000',
      title: 'Bytes allocated per frame, 1 000 interpolated bodies',
      how: '60 Hz steps, 144 fps, 1 000 moving and turning bodies rendered as three.js Object3D (the body rigs of bench/compare/bodies.ts); heap growth per frame after a warm-up as long as the measurement, no GC in between. Any allocation per body would show as ≥ 16 kB per frame.',
      expected: '0 B',
      fixedtickCorrect: ft !== undefined && ft.bytesPerCall === 0,
      cells,
    },
    {
      id: 'alloc-havok',
      title: 'Bytes allocated per frame, 1 000 Havok bodies, scene.render() included',
      how: 'NullEngine, 1 000 falling spheres on a ground, 60 Hz steps, 144 fps; everything a frame does, Babylon’s own rendering included; 1 440 frames after 720 warm-up frames.',
      expected: 'whatever Babylon itself allocates; the adapter adds 0 B (see alloc-1000)',
      cells: havokCells,
    },
  ];
}

/** Bytes per frame of one contender's 1 000-body rig, measured in this process. */
export async function allocationCell(id: ContenderId): Promise<Cell> {
  const FRAMES = 20_000;
  const rig = await bodyRig(id, 1000);
  if (typeof rig === 'string') return na(rig);
  try {
    // Long warm-ups: until the frame code is optimised, V8 boxes every double it passes around.
    const frames = id === 'cannon' ? 3000 : FRAMES;
    const a = allocationPerCall(() => rig.frame(), frames, frames);
    return {
      value: `${Math.round(a.bytesPerCall)} B`,
      raw: a,
      note: `young-generation growth over ${frames} frames after ${frames} warm-up frames, in a fresh process${id === 'cannon' ? '; includes its physics step' : ''}`,
    };
  } finally {
    rig.dispose();
  }
}

/** Runs {@link allocationCell} in a fresh Node process with this process's flags. */
function allocationInChild(id: ContenderId): Cell {
  const worker = fileURLToPath(new URL('./alloc-worker.ts', import.meta.url));
  const result = spawnSync(process.execPath, [...process.execArgv, worker, id], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (result.status !== 0) {
    return na(`the allocation worker for ${id} failed (exit ${result.status ?? result.signal})`);
  }
  return JSON.parse(result.stdout) as Cell;
}
