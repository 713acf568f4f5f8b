/**
 * `useRapierInstances` on a real R3F root with real Rapier WASM: each instance of an
 * `<instancedMesh>` is drawn between its body's last two steps at a 144 Hz display, a `null`
 * body leaves its instance alone, and the bindings follow the component's life.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import {
  FixedTick,
  type ThreeFixedLoop,
  useFixedLoop,
  usePostSimulation,
} from '@fixedtick/react-three';
import {
  FixedRapier,
  type RapierPhysics,
  useRapierInstances,
  useRapierPhysics,
} from '@fixedtick/react-three/rapier';
import { advance, useThree } from '@react-three/fiber';
import { useLayoutEffect, useRef } from 'react';
import { type InstancedMesh, Matrix4, Vector3 } from 'three';
import { beforeAll, describe, expect, it } from 'vitest';
import { failOnConsoleErrors, mount, timestamps } from './r3f-harness.tsx';

failOnConsoleErrors();
beforeAll(() => RAPIER.init());

interface Seen {
  loop?: ThreeFixedLoop;
  physics?: RapierPhysics | null;
  mesh?: InstancedMesh;
  steps: { tick: number; y: number[] }[];
  drawn: { tick: number; alpha: number; y: number[] }[];
}

const matrix = new Matrix4();
const position = new Vector3();

function Balls(props: { bodies: (RAPIER.RigidBody | null)[]; seen: Seen; count: number }) {
  const { bodies, seen, count } = props;
  const ref = useRef<InstancedMesh>(null);
  useRapierInstances(ref, bodies);
  const loop = useFixedLoop();
  seen.loop = loop;
  seen.physics = useRapierPhysics();
  usePostSimulation((_dt, tick) => {
    seen.steps.push({ tick, y: bodies.map((b) => b?.translation().y ?? Number.NaN) });
  });
  const scene = useThree((s) => s.scene);
  useLayoutEffect(() => {
    seen.mesh = ref.current as InstancedMesh;
    scene.onBeforeRender = () => {
      const mesh = ref.current as InstancedMesh;
      const y = bodies.map((_, i) => {
        mesh.getMatrixAt(i, matrix);
        return position.setFromMatrixPosition(matrix).y;
      });
      seen.drawn.push({ tick: loop.tick, alpha: loop.alpha, y });
    };
  }, [scene, loop, seen, bodies]);
  return <instancedMesh ref={ref} args={[undefined, undefined, count]} />;
}

describe('useRapierInstances', () => {
  it('draws each instance between its body’s last two steps; a null body is left alone', async () => {
    const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
    const bodies = [0, 1, 2].map((i) => {
      const body = world.createRigidBody(
        RAPIER.RigidBodyDesc.dynamic().setTranslation(i, 5 + i, 0),
      );
      world.createCollider(RAPIER.ColliderDesc.ball(0.5), body);
      return body;
    });
    const seen: Seen = { steps: [], drawn: [] };
    const r = await mount(
      <FixedTick tickRate={60}>
        <FixedRapier world={world}>
          <Balls bodies={[bodies[0], null, bodies[2]]} seen={seen} count={3} />
        </FixedRapier>
      </FixedTick>,
    );
    for (const t of timestamps(144, 145)) advance(t);
    expect(seen.physics?.size).toBe(2);
    const frames = seen.drawn.filter((f) => f.tick >= 2);
    expect(frames.length).toBeGreaterThan(100);
    for (const f of frames) {
      const current = seen.steps.find((s) => s.tick === f.tick - 1);
      const previous = seen.steps.find((s) => s.tick === f.tick - 2);
      if (current === undefined || previous === undefined) continue;
      for (const i of [0, 2]) {
        const expected = previous.y[i] + (current.y[i] - previous.y[i]) * f.alpha;
        expect(f.y[i]).toBeCloseTo(expected, 5);
      }
      // the instance with no body stays where it was made (the origin)
      expect(f.y[1]).toBe(0);
    }
    await r.unmount();
    expect(seen.physics?.size ?? 0).toBe(0);
    world.free();
  });
});
