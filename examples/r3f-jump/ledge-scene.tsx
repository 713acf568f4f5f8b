/**
 * The 96 px ledge scene as R3F components under `<FixedTick>`: the fixed runner is a tracked mesh
 * moved in `useFixedUpdate` (drawn interpolated), the per-frame runners move in `useUpdate`, the
 * peak lines are drawn in `usePreRender`, and a `useFrame` callback at R3F's default priority
 * (after the loop's frame) publishes the numbers the e2e test reads.
 */
import {
  type InputLatch,
  useFixedLoop,
  useFixedUpdate,
  useInputLatch,
  usePreRender,
  useTracked,
  useUpdate,
} from '@fixedtick/react-three';
import { createTimingGraph } from '@fixedtick/react-three/debug';
import { useFrame, useThree } from '@react-three/fiber';
import { type RefObject, useEffect, useLayoutEffect, useRef } from 'react';
import type { Mesh, OrthographicCamera } from 'three';
import {
  BOX,
  fitView,
  inLaneOrder,
  LANE_X,
  LEDGE,
  type Runners,
  resetRunners,
  shownPeak,
  stepFixed,
  stepPerFrame,
} from '../shared/ledge-jump.ts';

/** What the page (outside the canvas) can ask of the scene. */
export interface SceneLink {
  /** Taps Space through the scene's input latch (the button, the automatic jump). */
  jump(): void;
  /** Puts the runners back on the ground (a teleport of the tracked mesh). */
  reset(): void;
}

/** The numbers the scene publishes on `window.__fixedtick`. */
export interface SceneNumbers {
  /** Loop frames run (`loop.frameCount`). */
  frames: number;
  /** R3F frames seen by a `useFrame` callback at the default priority. */
  r3fFrames: number;
  /** Fixed steps run. */
  ticks: number;
  /** R3F's `frameloop` mode of the canvas. */
  frameloop: string;
  /** Every distinct `dt` the fixed runner's `useFixedUpdate` was called with since the last reset. */
  fixedDeltas: number[];
  /** Peak of each runner's last completed jump, px. */
  peaks: Record<keyof Runners, number | null>;
}

const GROUND = '#3a4358';
const LEDGE_COLOR = '#556079';
const EDGE = '#e05d5d';

/** A box of `w` × `h` px centred at (x, y), as an R3F mesh of the shared unit geometry. */
function Block(props: {
  color: string;
  w: number;
  h: number;
  x: number;
  y: number;
  ref?: RefObject<Mesh | null>;
}) {
  return (
    <mesh ref={props.ref ?? null} position={[props.x, props.y, 0]} scale={[props.w, props.h, 1]}>
      <boxGeometry />
      <meshBasicMaterial color={props.color} />
    </mesh>
  );
}

/** Fits the orthographic camera (and the HTML lane labels) to the canvas's size. */
function FitCamera({ labels }: { labels: RefObject<HTMLDivElement | null> }) {
  const camera = useThree((s) => s.camera);
  const { width, height } = useThree((s) => s.size);
  useLayoutEffect(() => {
    const ortho = camera as OrthographicCamera;
    if (ortho.isOrthographicCamera === true) fitView(ortho, labels.current, width, height);
  }, [camera, width, height, labels]);
  return null;
}

/** The fixed runner: a tracked mesh moved in fixed steps, drawn interpolated. */
function FixedRunner(props: {
  runners: Runners;
  input: InputLatch;
  numbers: SceneNumbers;
  body: RefObject<Mesh | null>;
}) {
  const { runners, input, numbers, body } = props;
  useTracked(body);
  useFixedUpdate((dt) => {
    const r = runners.fixed;
    stepFixed(r, input.pressed('Space'), dt);
    if (!numbers.fixedDeltas.includes(dt)) numbers.fixedDeltas.push(dt);
    // Inside the step the tracked mesh holds its simulation pose: write it like game code does.
    (body.current as Mesh).position.y = r.y + BOX / 2;
  });
  return <Block ref={body} color={runners.fixed.color} w={BOX} h={BOX} x={LANE_X[2]} y={BOX / 2} />;
}

/** The two per-frame runners and the three peak lines. */
function FrameRunners({ runners, input }: { runners: Runners; input: InputLatch }) {
  const bodies = [useRef<Mesh>(null), useRef<Mesh>(null)];
  const lines = [useRef<Mesh>(null), useRef<Mesh>(null), useRef<Mesh>(null)];
  useUpdate((delta) => stepPerFrame(runners, input.pressedThisFrame('Space'), delta));
  usePreRender(() => {
    // The per-frame runners are drawn where they are; the fixed runner is at its interpolated pose.
    (bodies[0].current as Mesh).position.y = runners.perFrame.y + BOX / 2;
    (bodies[1].current as Mesh).position.y = runners.dt.y + BOX / 2;
    inLaneOrder(runners).forEach((r, i) => {
      const line = lines[i].current as Mesh;
      const shown = shownPeak(r);
      line.visible = shown !== null && shown > 0;
      line.position.y = shown ?? 0;
    });
  });
  return (
    <>
      {inLaneOrder(runners).map((r, i) => (
        <group key={r.label}>
          <Block color={LEDGE_COLOR} w={70} h={LEDGE} x={LANE_X[i] + 70} y={LEDGE / 2} />
          <Block color={EDGE} w={70} h={2} x={LANE_X[i] + 70} y={LEDGE + 1} />
          <Block ref={lines[i]} color={r.color} w={76} h={1.5} x={LANE_X[i] - 3} y={0} />
          {i < 2 && (
            <Block ref={bodies[i]} color={r.color} w={BOX} h={BOX} x={LANE_X[i]} y={BOX / 2} />
          )}
        </group>
      ))}
    </>
  );
}

/** After the loop's frame (R3F's default priority): the numbers for the page and the test. */
function Measurements({ runners, numbers }: { runners: Runners; numbers: SceneNumbers }) {
  const loop = useFixedLoop();
  useFrame((state) => {
    numbers.r3fFrames++;
    numbers.frames = loop.frameCount;
    numbers.ticks = loop.tick;
    numbers.frameloop = state.frameloop;
    numbers.peaks.perFrame = runners.perFrame.lastPeak;
    numbers.peaks.dt = runners.dt.lastPeak;
    numbers.peaks.fixed = runners.fixed.lastPeak;
  });
  return null;
}

/** The live timing graph of the loop (G shows and hides it). */
function TimingGraph({ container }: { container: RefObject<HTMLElement | null> }) {
  const loop = useFixedLoop();
  useEffect(() => {
    const host = container.current;
    if (host === null) return;
    const graph = createTimingGraph(loop, {
      container: host,
      position: 'bottom-left',
      toggleKey: 'g',
      help: '/guides/timing-graph.md',
    });
    return () => graph.dispose();
  }, [loop, container]);
  return null;
}

/** Everything under `<FixedTick>`: the ground, the lanes, the runners, the measurements. */
export function LedgeScene(props: {
  runners: Runners;
  numbers: SceneNumbers;
  link: SceneLink;
  stage: RefObject<HTMLElement | null>;
  labels: RefObject<HTMLDivElement | null>;
}) {
  const { runners, numbers, link } = props;
  const input = useInputLatch({ keyboardOptions: { preventDefault: ['Space'] } });
  const fixedBody = useRef<Mesh>(null);
  useEffect(() => {
    link.jump = () => {
      input.press('Space');
      input.release('Space');
    };
    link.reset = () => {
      resetRunners(runners);
      numbers.fixedDeltas.length = 0;
      // outside the step: a teleport, drawn in the next frame with no streak
      (fixedBody.current as Mesh).position.y = BOX / 2;
    };
  }, [link, input, runners, numbers]);
  return (
    <>
      <color attach="background" args={['#141a26']} />
      <FitCamera labels={props.labels} />
      <Block color={GROUND} w={760} h={8} x={0} y={-4} />
      <FrameRunners runners={runners} input={input} />
      <FixedRunner runners={runners} input={input} numbers={numbers} body={fixedBody} />
      <Measurements runners={runners} numbers={numbers} />
      <TimingGraph container={props.stage} />
    </>
  );
}
