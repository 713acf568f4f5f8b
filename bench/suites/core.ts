/**
 * Core loop overhead: `advance()` with three listeners against the bare accumulator loop a
 * developer writes by hand, calling the same three listeners, in the same run; and heap bytes
 * allocated per frame over 100 000 frames.
 */
import { FixedLoop } from '../../packages/core/src/index.ts';
import { allocationPerCall, compare } from '../lib.ts';

export default function core(): Record<string, unknown> {
  const frameTime = 1 / 144;
  // Listeners write into a typed array: a closure variable holding a double would itself
  // allocate a box per write, which is the listener's cost, not the loop's.
  const sink = new Float64Array(1);
  const fixedUpdate = (dt: number) => {
    sink[0] += dt;
  };
  const update = (dt: number, alpha: number) => {
    sink[0] += dt * alpha;
  };
  const render = (_dt: number, alpha: number) => {
    sink[0] -= alpha;
  };

  const loop = new FixedLoop({ tickRate: 60 });
  loop.onFixedUpdate(fixedUpdate);
  loop.onUpdate(update);
  loop.onPreRender(render);

  // The hand-written loop (Fiedler's, with its clamp) calling the same listeners.
  const fixedDelta = 1 / 60;
  let accumulator = 0;
  const bare = () => {
    let frame = frameTime;
    if (frame > 0.25) frame = 0.25;
    accumulator += frame;
    while (accumulator >= fixedDelta) {
      fixedUpdate(fixedDelta);
      accumulator -= fixedDelta;
    }
    const alpha = accumulator / fixedDelta;
    update(frame, alpha);
    render(frame, alpha);
  };
  const fixedtick = () => {
    loop.advance(frameTime);
  };

  const cost = compare(fixedtick, bare, 200_000);
  const allocation = allocationPerCall(fixedtick, 100_000);

  const bare100k = allocationPerCall(bare, 100_000);
  return {
    scenario: '60 Hz steps, 144 fps frames, 3 listeners (fixedUpdate, update, preRender)',
    advanceNsPerFrame: Number(cost.aNs.toFixed(1)),
    bareLoopNsPerFrame: Number(cost.bNs.toFixed(1)),
    ratio: Number(cost.ratio.toFixed(2)),
    ratioBudget: 3,
    bytesPerFrame: allocation.bytesPerCall,
    bytesPerFrameNote:
      "young-generation bytes per frame over 100 000 frames (see bench/lib.ts allocationPerCall); the hand-written loop below boxes its closure's accumulator and the numbers it passes",
    bareLoopBytesPerFrame: bare100k.bytesPerCall,
    youngGenerationGrowthBytesOver100kFrames: allocation.totalBytes,
    checksum: Number.isFinite(sink[0]),
  };
}
