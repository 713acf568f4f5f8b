/**
 * What the React Three Fiber bindings allocate per frame: `npm run bench -- react-three`.
 *
 * A real R3F root (`@react-three/test-renderer`: R3F's reconciler and a three.js `WebGLRenderer`
 * over a mock WebGL context) holds `<FixedTick tickRate={60}>` and 100 runner components, each
 * with a `useTracked` mesh moved and turned in `useFixedUpdate` and on the four other loop hooks,
 * plus one `useInputLatch` reader; frames are 8 ms (125 fps: 0- and 1-step frames, fractional
 * alpha). Timestamps are whole milliseconds so that the bench's own clock is a small integer V8
 * keeps unboxed (a browser hands R3F its timestamp already boxed). Measured with
 * {@link allocationPerCall} (young-generation growth, smallest of three rounds; the
 * measurement's own bookkeeping reads as 0):
 *
 * - **bindings** — exactly what R3F calls into Fixedtick each frame: its global effects (where
 *   `<FixedTick>` reads the frame's timestamp) and `<FixedTick>`'s `useFrame` callback, which runs
 *   the loop's frame: the steps, the hooks' listeners and the components' callbacks, the
 *   tracker's passes.
 * - **sameWorkOnALoop** — the same 100 objects tracked and the same callbacks subscribed straight
 *   on a `ThreeFixedLoop` (`loop.onFixedUpdate(fn)`, …), fed the same frames by `loop.frame(ms)`,
 *   no React: what the loop itself allocates for this work.
 * - **bindingsOwn** — `bindings` − `sameWorkOnALoop`, from the two totals: what the bindings add
 *   (a difference within the measurement's bookkeeping, 4 kB over all frames, reads as 0).
 *   Budget: 0 B.
 * - **r3fFrame** / **r3fFrameWithoutFixedtick** — a whole `advance(ms)` (R3F's update, every
 *   `useFrame`, the render through three.js), with `<FixedTick>` and with the same meshes moved
 *   by one `useFrame` each instead: R3F's and three's own share, for reference.
 */
import { register } from 'node:module';
import { createElement, type ReactNode, useRef } from 'react';
import { Mesh, type Object3D } from 'three';
import { allocationPerCall } from '../lib.ts';

// R3F's ES modules, so there is one three.js (see the hooks file); before R3F is first imported.
register('../react-three/esm-builds.mjs', import.meta.url);
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const RUNNERS = 100;
const FRAME_MS = 8;
const FRAMES = 20_000;
/** Total heap growth that is the measurement's own bookkeeping (as in {@link allocationPerCall}). */
const NOISE_BYTES = 4096;

/** The parts of R3F's root state the bench calls, as R3F calls them. */
interface R3fState {
  internal: {
    subscribers: { priority: number; ref: { current(s: R3fState, delta: number): void } }[];
  };
}

/** R3F's state of the root `scene` belongs to (its R3F instance holds the store). */
function rootState(scene: unknown): R3fState {
  return (scene as { __r3f: { root: { getState(): R3fState } } }).__r3f.root.getState();
}

/** Where the callbacks put what they read, so nothing they compute is dead code. */
const sink = new Float64Array(4);

/** One runner's callbacks, the same in React and on a bare loop. None allocates. */
function callbacks(index: number, object: () => Object3D) {
  const speed = 1 + (index % 7);
  const spin = 0.5 + index / 20;
  return {
    fixed: (dt: number) => {
      const o = object();
      o.position.x += speed * dt;
      o.rotation.y += spin * dt;
    },
    post: (_dt: number, tick: number) => {
      sink[0] = tick;
    },
    update: (_delta: number, alpha: number) => {
      sink[1] += alpha;
    },
    late: (delta: number) => {
      sink[2] += delta;
    },
    pre: (_delta: number, alpha: number) => {
      sink[3] = alpha;
    },
  };
}

export default async function reactThree(): Promise<Record<string, unknown>> {
  const { advance, flushGlobalEffects, useFrame } = await import('@react-three/fiber');
  const { create } = await import('@react-three/test-renderer');
  const ft = await import('../../packages/react-three/src/index.ts');
  let loop: InstanceType<typeof ft.ThreeFixedLoop> | undefined;

  const box = () => [createElement('boxGeometry'), createElement('meshBasicMaterial')];

  /** A runner on the loop: tracked, moved in fixed steps, on every hook. */
  function Runner({ index }: { index: number }): ReactNode {
    const ref = useRef<Mesh>(null);
    const c = callbacks(index, () => ref.current as Mesh);
    ft.useTracked(ref);
    ft.useFixedUpdate(c.fixed);
    ft.usePostSimulation(c.post);
    ft.useUpdate(c.update);
    ft.useLateUpdate(c.late);
    ft.usePreRender(c.pre);
    return createElement('mesh', { ref, position: [index, 0, 0] }, ...box());
  }

  /** The game's input reader (and the bench's handle on the loop). */
  function Input(): ReactNode {
    loop = ft.useFixedLoop();
    const input = ft.useInputLatch({ keyboard: null });
    ft.useFixedUpdate(() => {
      sink[0] += input.pressed('Space') ? 1 : 0;
    });
    return null;
  }

  /** The same mesh moved per frame by R3F alone. */
  function PlainRunner({ index }: { index: number }): ReactNode {
    const ref = useRef<Mesh>(null);
    const c = callbacks(index, () => ref.current as Mesh);
    useFrame((_state, delta) => c.fixed(delta));
    return createElement('mesh', { ref, position: [index, 0, 0] }, ...box());
  }

  const indices = Array.from({ length: RUNNERS }, (_, i) => i);
  let t = 0;
  const r3fFrame = () => {
    t += FRAME_MS;
    advance(t);
  };

  // ---- with <FixedTick> ---------------------------------------------------------------------
  const withLoop = await create(
    createElement(
      ft.FixedTick,
      { tickRate: 60 },
      createElement(Input),
      ...indices.map((i) => createElement(Runner, { key: i, index: i })),
    ),
  );
  const state = rootState(withLoop.scene.instance);
  const fixedTick = state.internal.subscribers.find((s) => s.priority < 0);
  if (fixedTick === undefined) throw new Error('bench: <FixedTick> has no useFrame subscriber');
  const bindings = allocationPerCall(
    () => {
      t += FRAME_MS;
      flushGlobalEffects('before', t); // <FixedTick> reads the frame's timestamp here
      fixedTick.ref.current(state, FRAME_MS / 1000);
    },
    FRAMES,
    FRAMES,
  );
  const withFixedtick = allocationPerCall(r3fFrame, FRAMES, FRAMES);
  const ran = loop && {
    ticks: loop.tick,
    frames: loop.frameCount,
    tracked: loop.trackedCount,
    fixedDelta: loop.fixedDelta,
  };
  await withLoop.unmount();

  // ---- the same work on a bare loop ---------------------------------------------------------
  const bare = new ft.ThreeFixedLoop({ tickRate: 60 });
  new ft.InputLatch(bare);
  for (const i of indices) {
    const mesh = new Mesh();
    mesh.position.x = i;
    const c = callbacks(i, () => mesh);
    bare.track(mesh);
    bare.onFixedUpdate(c.fixed);
    bare.onPostSimulation(c.post);
    bare.onUpdate(c.update);
    bare.onLateUpdate(c.late);
    bare.onPreRender(c.pre);
  }
  bare.onFixedUpdate(() => {
    sink[0] += 1;
  });
  let bareMs = 0;
  const sameWork = allocationPerCall(
    () => {
      bareMs += FRAME_MS;
      bare.frame(bareMs);
    },
    FRAMES,
    FRAMES,
  );

  // ---- R3F alone ----------------------------------------------------------------------------
  const plain = await create(
    createElement(
      'group',
      null,
      ...indices.map((i) => createElement(PlainRunner, { key: i, index: i })),
    ),
  );
  const withoutFixedtick = allocationPerCall(r3fFrame, FRAMES, FRAMES);
  await plain.unmount();

  const ownTotal = bindings.totalBytes - sameWork.totalBytes;
  return {
    runners: RUNNERS,
    frameMs: FRAME_MS,
    framesMeasured: FRAMES,
    loop: ran,
    bytesPerFrame: {
      bindings: bindings.bytesPerCall,
      sameWorkOnALoop: sameWork.bytesPerCall,
      bindingsOwn: ownTotal <= NOISE_BYTES ? 0 : ownTotal / FRAMES,
      r3fFrame: withFixedtick.bytesPerCall,
      r3fFrameWithoutFixedtick: withoutFixedtick.bytesPerCall,
    },
    bindingsOwnTotalBytes: ownTotal,
    totalBytes: {
      bindings: bindings.rounds,
      sameWorkOnALoop: sameWork.rounds,
      r3fFrame: withFixedtick.rounds,
      r3fFrameWithoutFixedtick: withoutFixedtick.rounds,
    },
    budget: { bindingsOwnBytesPerFrame: 0 },
  };
}
