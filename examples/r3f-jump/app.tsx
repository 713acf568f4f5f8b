/**
 * The page of the R3F ledge example: the canvas with `<FixedTick>`, the selectors and the
 * numbers.
 *
 * How frames reach the loop: with "unlimited / real" the canvas runs R3F's own frame loop
 * (`frameloop="always"`: the browser's `requestAnimationFrame` timestamps), as an app does. A
 * simulated 30, 60 or 144 fps display sets `frameloop="never"` and each browser frame calls R3F's
 * `advance(timestampMs)` with a {@link SimulatedDisplay} timestamp — R3F passes it to its global
 * effects, where `<FixedTick>` reads the frame's time, so the loop sees exactly that display's
 * frame times. Measurements are published on `window.__fixedtick` for the e2e test.
 */
import { FixedTick } from '@fixedtick/react-three';
import { advance, Canvas } from '@react-three/fiber';
import { useEffect, useRef, useState } from 'react';
import { expose } from '../shared/expose.ts';
import {
  AUTO_JUMP_PAUSE_MS,
  createRunners,
  displayNote,
  inLaneOrder,
  shownPeak,
} from '../shared/ledge-jump.ts';
import { type DisplayRate, SimulatedDisplay } from '../shared/simulated-display.ts';
import { LedgeScene, type SceneLink, type SceneNumbers } from './ledge-scene.tsx';

const runners = createRunners();
/**
 * What the e2e test reads on `window.__fixedtick`: the page's settings, the runners, and the
 * scene's numbers, which the scene writes into this same object each frame.
 */
const state = expose({
  example: 'r3f-jump',
  ready: false,
  displayRate: 60 as DisplayRate,
  physicsRate: 60,
  runners,
  frames: 0,
  r3fFrames: 0,
  ticks: 0,
  frameloop: 'never',
  fixedDeltas: [] as number[],
  peaks: { perFrame: null, dt: null, fixed: null } as SceneNumbers['peaks'],
});
const numbers: SceneNumbers = state;
const display = new SimulatedDisplay(60);
const link: SceneLink = { jump: () => {}, reset: () => {} };
/** How often the panel's numbers are redrawn, ms (React re-renders the panel, not the scene). */
const PANEL_REFRESH_MS = 100;

/** One browser frame: the simulated display's frame (if due), the automatic jump, the numbers. */
function useBrowserFrames(autoJump: boolean, refresh: () => void): void {
  const auto = useRef(autoJump);
  auto.current = autoJump;
  useEffect(() => {
    let idleSinceMs = Number.NaN;
    let shownAtMs = Number.NEGATIVE_INFINITY;
    let id = requestAnimationFrame(function browserFrame(realMs) {
      id = requestAnimationFrame(browserFrame);
      if (display.rate !== 'real') {
        const timestamp = display.next(realMs);
        if (!Number.isNaN(timestamp)) advance(timestamp);
      }
      const resting = inLaneOrder(runners).every((r) => !r.airborne);
      if (!resting || !auto.current) idleSinceMs = Number.NaN;
      else if (Number.isNaN(idleSinceMs)) idleSinceMs = realMs;
      else if (realMs - idleSinceMs > AUTO_JUMP_PAUSE_MS) {
        link.jump();
        idleSinceMs = Number.NaN;
      }
      if (realMs - shownAtMs >= PANEL_REFRESH_MS) {
        shownAtMs = realMs;
        refresh();
      }
      state.ready = numbers.frames > 0;
    });
    return () => cancelAnimationFrame(id);
  }, [refresh]);
}

/** The selectors, the table of peaks and the notes. */
function Panel(props: {
  rate: DisplayRate;
  physicsRate: number;
  autoJump: boolean;
  onRate(rate: DisplayRate): void;
  onPhysicsRate(rate: number): void;
  onAutoJump(on: boolean): void;
}) {
  const note = displayNote(
    props.rate,
    display.speed,
    'Display: R3F’s own frame loop (frameloop="always"), on the browser’s requestAnimationFrame.',
  );
  return (
    <aside className="panel">
      <a className="back" href="../">
        ← all examples
      </a>
      <h1>The 96 px ledge, in React Three Fiber</h1>
      <p>
        The jump of the three.js example (v₀ = 600 px/s, g = 1800 px/s²), written as R3F components
        on <code>@fixedtick/react-three</code>: the fixed runner is a <code>useTracked</code> mesh
        moved in <code>useFixedUpdate</code>, the other two move in <code>useUpdate</code>.
      </p>
      <label>
        Display rate
        <select
          id="display-rate"
          value={String(props.rate)}
          onChange={(e) => {
            props.onRate(e.target.value === 'real' ? 'real' : Number(e.target.value));
            e.currentTarget.blur(); // the keys (Space, G) are the page's again at once
          }}
        >
          <option value="30">30 fps (simulated)</option>
          <option value="60">60 fps (simulated)</option>
          <option value="144">144 fps (simulated)</option>
          <option value="real">unlimited / real</option>
        </select>
      </label>
      <label>
        Physics rate
        <select
          id="physics-rate"
          value={String(props.physicsRate)}
          onChange={(e) => {
            props.onPhysicsRate(Number(e.target.value));
            e.currentTarget.blur();
          }}
        >
          {[30, 60, 120, 144].map((hz) => (
            <option key={hz} value={hz}>
              {hz} Hz
            </option>
          ))}
        </select>
      </label>
      <label>
        Jump automatically
        <input
          type="checkbox"
          id="auto-jump"
          checked={props.autoJump}
          onChange={(e) => {
            props.onAutoJump(e.target.checked);
            e.currentTarget.blur();
          }}
        />
      </label>
      <button
        type="button"
        id="jump"
        onClick={(e) => {
          link.jump();
          e.currentTarget.blur(); // so a later Space is a key press, not a second click
        }}
      >
        Jump (Space)
      </button>
      <table>
        <thead>
          <tr>
            <th>runner</th>
            <th>peak px</th>
            <th>air s</th>
            <th>jumps</th>
          </tr>
        </thead>
        <tbody>
          {inLaneOrder(runners).map((r) => (
            <tr key={r.label}>
              <td>
                <span className="swatch" style={{ background: r.color }} />
                {r.label}
              </td>
              <td>{shownPeak(r)?.toFixed(1) ?? '–'}</td>
              <td>{r.lastAirtime?.toFixed(3) ?? '–'}</td>
              <td>{r.jumps}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="note">
        Keys work right after you use a control: it hands the focus back to the page.
      </p>
      <p className="note">{note}</p>
      <p className="note">
        <code>&lt;FixedTick&gt;</code> runs the loop in a <code>useFrame</code> callback at priority
        -100: the steps, the interpolation and the hooks run first, then every <code>useFrame</code>{' '}
        at the default priority (they see the interpolated poses), then R3F draws. Changing a rate
        puts the runners back on the ground: a write to the tracked mesh outside the step, a
        teleport with no streak. <b>G</b> shows and hides the timing graph (bottom left of the view;
        its “What is this graph?” line explains the marks, and the{' '}
        <a href="/guides/timing-graph.md">guide</a> says how to read them).
      </p>
      <p className="note">
        frames {numbers.frames} · ticks {numbers.ticks} · physics {props.physicsRate} Hz · frameloop{' '}
        {numbers.frameloop}
      </p>
    </aside>
  );
}

/** The example page. */
export function App() {
  const [rate, setRate] = useState<DisplayRate>(display.rate);
  const [physicsRate, setPhysicsRate] = useState(60);
  const [autoJump, setAutoJump] = useState(true);
  const [, setShown] = useState(0);
  const [refresh] = useState(() => () => setShown((n) => n + 1));
  const stage = useRef<HTMLDivElement>(null);
  const labels = useRef<HTMLDivElement>(null);
  useBrowserFrames(autoJump, refresh);
  const onRate = (next: DisplayRate) => {
    display.rate = next;
    state.displayRate = next;
    setRate(next);
    link.reset();
  };
  const onPhysicsRate = (next: number) => {
    state.physicsRate = next;
    setPhysicsRate(next);
    link.reset();
  };
  return (
    <div className="example">
      <div className="stage" ref={stage}>
        <Canvas
          orthographic
          flat
          camera={{ manual: true, near: -10, far: 10, position: [0, 0, 0] }}
          dpr={[1, 2]}
          frameloop={rate === 'real' ? 'always' : 'never'}
        >
          <FixedTick tickRate={physicsRate}>
            <LedgeScene
              runners={runners}
              numbers={numbers}
              link={link}
              stage={stage}
              labels={labels}
            />
          </FixedTick>
        </Canvas>
        <div className="lane-labels" ref={labels}>
          {inLaneOrder(runners).map((r) => (
            <span key={r.label} style={{ color: r.color }}>
              {r.label}
            </span>
          ))}
        </div>
      </div>
      <Panel
        rate={rate}
        physicsRate={physicsRate}
        autoJump={autoJump}
        onRate={onRate}
        onPhysicsRate={onPhysicsRate}
        onAutoJump={setAutoJump}
      />
    </div>
  );
}
