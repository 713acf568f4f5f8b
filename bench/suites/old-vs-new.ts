/**
 * This tree's tracker against an older commit's, interleaved in one process, at 10 000 bodies,
 * 60 Hz steps, 144 fps frames: `npm run bench -- old-vs-new`. The older commit (default
 * `697b5ea`, the tracker before the pose store; `FIXEDTICK_OLD_COMMIT=<rev>` for another) is
 * extracted with `git archive` into `node_modules/.cache/fixedtick-old/<rev>/` (so it resolves
 * the same three.js and Babylon.js as this tree), its `@fixedtick/*` imports pointed at its own
 * sources, and its `ThreeFixedLoop` and `BabylonFixedLoop` loaded beside this tree's.
 *
 * Scenes, the same on both sides:
 * - **threePlain** — `ThreeFixedLoop`, every `Object3D` tracked and moved in `fixedUpdate`.
 * - **threeInstanced** — one `InstancedMesh`, every instance tracked and moved with
 *   `setInstancePose` in `fixedUpdate`.
 * - **babylonSettling** — `BabylonFixedLoop` over Havok, dynamic boxes dropped onto a ground,
 *   measured once most have come to rest (the frames include Havok's steps, the same work on
 *   both sides).
 *
 * `OLD_VS_NEW_SCENES=threePlain,threeInstanced` runs only those. Each reports `ratio = new / old` per frame as min / median / max over interleaved rounds
 * (`compareRounds`), each side's median ns per frame, and the bytes the new side allocates per
 * frame (young-generation growth over 1 440 frames, 144 for Babylon, in windows without a
 * garbage collection).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Scene } from '@babylonjs/core/scene.js';
import { InstancedMesh, Matrix4, Object3D } from 'three';
import { BabylonFixedLoop } from '../../packages/babylon/src/index.ts';
import { dynamicBox, ground, havokScene } from '../../packages/babylon/test/havok-scene.ts';
import { ThreeFixedLoop } from '../../packages/three/src/index.ts';
import { allocationWithoutGc, compareRounds } from '../lib.ts';
import { physics } from './three.ts';

const BODIES = 10_000;
const FRAME_TIME = 1 / 144;
const TICK_RATE = 60;
const root = fileURLToPath(new URL('../../', import.meta.url));

/** Extracts `commit` (once) and points its `@fixedtick/*` imports at its own sources. */
function oldTree(commit: string): string {
  const dir = join(root, 'node_modules/.cache/fixedtick-old', commit);
  if (existsSync(join(dir, 'packages'))) return dir;
  mkdirSync(dir, { recursive: true });
  const archive = execFileSync('git', ['archive', '--format=tar', commit, 'packages'], {
    cwd: root,
    maxBuffer: 1 << 30,
  });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  const rewrite = (path: string): void => {
    for (const name of readdirSync(path)) {
      const file = join(path, name);
      if (statSync(file).isDirectory()) rewrite(file);
      else if (file.endsWith('.ts')) {
        const text = readFileSync(file, 'utf8').replace(
          /from '@fixedtick\/([a-z-]+)(?:\/([a-z-]+))?'/g,
          (_, pkg: string, sub?: string) =>
            `from '${join(dir, 'packages', pkg, 'src', sub ? `entries/${sub}.ts` : 'index.ts')}'`,
        );
        writeFileSync(file, text);
      }
    }
  };
  for (const pkg of ['core', 'three', 'babylon']) rewrite(join(dir, 'packages', pkg, 'src'));
  return dir;
}

type ThreeLoopClass = typeof ThreeFixedLoop;
type BabylonLoopClass = typeof BabylonFixedLoop;

function threePlain(Loop: ThreeLoopClass, n: number): ThreeFixedLoop {
  const m = physics(n);
  const loop = new Loop({ tickRate: TICK_RATE });
  const list: Object3D[] = [];
  for (let i = 0; i < n; i++) {
    const o = new Object3D();
    o.position.set(m.x[i], 0, 0);
    list.push(o);
    loop.track(o);
  }
  loop.onFixedUpdate((dt) => {
    for (let i = 0; i < n; i++) {
      m.x[i] += m.v[i] * dt;
      m.yaw[i] += m.w[i] * dt;
      const half = m.yaw[i] / 2;
      list[i].position.x = m.x[i];
      list[i].quaternion.set(0, Math.sin(half), 0, Math.cos(half));
    }
  });
  return loop;
}

function threeInstanced(Loop: ThreeLoopClass, n: number): ThreeFixedLoop {
  const m = physics(n);
  const loop = new Loop({ tickRate: TICK_RATE });
  const mesh = new InstancedMesh(undefined, undefined, n);
  const matrix = new Matrix4();
  for (let i = 0; i < n; i++) mesh.setMatrixAt(i, matrix.makeTranslation(m.x[i], 0, 0));
  for (let i = 0; i < n; i++) loop.trackInstance(mesh, i);
  const position = { x: 0, y: 0, z: 0 };
  const rotation = { x: 0, y: 0, z: 0, w: 1 };
  loop.onFixedUpdate((dt) => {
    for (let i = 0; i < n; i++) {
      m.x[i] += m.v[i] * dt;
      m.yaw[i] += m.w[i] * dt;
      const half = m.yaw[i] / 2;
      position.x = m.x[i];
      rotation.y = Math.sin(half);
      rotation.w = Math.cos(half);
      loop.setInstancePose(mesh, i, position, rotation);
    }
  });
  return loop;
}

/** Boxes on a 100 × 100 grid dropped 0.5 m onto a ground; run until most sleep. */
async function babylonSettling(Loop: BabylonLoopClass, n: number): Promise<BabylonFixedLoop> {
  const scene: Scene = await havokScene();
  ground(scene);
  const side = Math.ceil(Math.sqrt(n));
  for (let i = 0; i < n; i++) {
    dynamicBox(scene, `b${i}`, (i % side) * 1.5 - side * 0.75, 1, Math.floor(i / side) * 1.5);
  }
  const loop = new Loop(scene, { tickRate: TICK_RATE, render: false });
  for (let f = 0; f < 360; f++) loop.advance(FRAME_TIME);
  return loop;
}

function frame(loop: { advance(seconds: number): unknown }): () => void {
  return () => {
    loop.advance(FRAME_TIME);
  };
}

export default async function oldVsNew(): Promise<Record<string, unknown>> {
  const commit = process.env.FIXEDTICK_OLD_COMMIT ?? '697b5ea';
  const dir = oldTree(commit);
  const old = {
    three: (await import(pathToFileURL(join(dir, 'packages/three/src/index.ts')).href)) as {
      ThreeFixedLoop: ThreeLoopClass;
    },
    babylon: (await import(pathToFileURL(join(dir, 'packages/babylon/src/index.ts')).href)) as {
      BabylonFixedLoop: BabylonLoopClass;
    },
  };
  const report = (
    result: ReturnType<typeof compareRounds>,
    bytes: number,
  ): Record<string, unknown> => ({
    ratioNewOverOld: result.ratio,
    newNsPerFrame: Math.round(result.aNs),
    oldNsPerFrame: Math.round(result.bNs),
    newBytesPerFrame: bytes,
  });
  const bytesPerFrame = async (
    loop: { advance(seconds: number): unknown },
    frames = 1440,
  ): Promise<number> => (await allocationWithoutGc(frame(loop), frames)).bytesPerCall;

  const scenes = (
    process.env.OLD_VS_NEW_SCENES ?? 'threePlain,threeInstanced,babylonSettling'
  ).split(',');
  const out: Record<string, unknown> = { old: commit, bodies: BODIES };
  if (scenes.includes('threePlain')) {
    const plainNew = threePlain(ThreeFixedLoop, BODIES);
    const plainOld = threePlain(old.three.ThreeFixedLoop, BODIES);
    const plain = compareRounds(frame(plainNew), frame(plainOld), 48, 21);
    const plainBytes = await bytesPerFrame(plainNew);
    out.threePlain = report(plain, plainBytes);
  }
  if (scenes.includes('threeInstanced')) {
    const instNew = threeInstanced(ThreeFixedLoop, BODIES);
    const instOld = threeInstanced(old.three.ThreeFixedLoop, BODIES);
    const instanced = compareRounds(frame(instNew), frame(instOld), 48, 21);
    const instBytes = await bytesPerFrame(instNew);
    out.threeInstanced = report(instanced, instBytes);
  }
  if (scenes.includes('babylonSettling')) {
    process.stderr.write('bench: old-vs-new: three done, Babylon settling…\n');
    const babNew = await babylonSettling(BabylonFixedLoop, BODIES);
    const babOld = await babylonSettling(old.babylon.BabylonFixedLoop, BODIES);
    const settling = compareRounds(frame(babNew), frame(babOld), 12, 11);
    // Havok's steps dominate these frames: fewer of them (the allocation window stays clean of GC)
    const babBytes = await bytesPerFrame(babNew, 144);

    out.babylonSettling = {
      ...report(settling, babBytes),
      restingNew: babNew.tracker.restingCount,
      restingOld: babOld.tracker.restingCount,
    };
  }
  return out;
}
