import { FixedLoop, presets } from '@fixedtick/core';
import {
  GodotEngine,
  NOTIFICATION_RESET_PHYSICS_INTERPOLATION,
  Node,
  PhysicsInterpolationMode,
} from '@fixedtick/core/godot';
import { describe, expect, it } from 'vitest';

const { INHERIT, ON, OFF } = PhysicsInterpolationMode;

/** A node that counts its callbacks and remembers the deltas it was given. */
class Probe extends Node {
  physicsDeltas: number[] = [];
  processDeltas: number[] = [];
  override _physics_process(delta: number): void {
    this.physicsDeltas.push(delta);
  }
  override _process(delta: number): void {
    this.processDeltas.push(delta);
  }
}

describe('GodotEngine: max_physics_steps_per_frame', () => {
  it.each([
    ['exact (jitter fix 0)', 0],
    ["Godot's preset (jitter fix 0.5)", 0.5],
  ])(
    'at 60 ticks and 8 max steps a 5 fps frame runs 8 steps and the game slows down: %s',
    (_name, jitterFix) => {
      const loop = new FixedLoop({ ...presets.godot, jitterFix, errorPolicy: 'throw' });
      const engine = new GodotEngine(loop);
      expect(engine.physics_ticks_per_second).toBe(60);
      expect(engine.max_physics_steps_per_frame).toBe(8);
      const probe = new Probe();
      engine.root.add_child(probe);
      const dropped: number[] = [];
      loop.onStepsDropped((steps) => dropped.push(steps));

      const stepsPerFrame: number[] = [];
      for (let frame = 0; frame < 10; frame++) {
        const before = probe.physicsDeltas.length;
        loop.advance(0.2); // 5 fps: 12 steps due per frame
        stepsPerFrame.push(probe.physicsDeltas.length - before);
      }

      expect(stepsPerFrame).toEqual([8, 8, 8, 8, 8, 8, 8, 8, 8, 8]);
      // 2 s of real time simulated 80 ticks = 1.333 s of game time: the game runs at 2/3 speed
      expect(engine.get_physics_frames()).toBe(80);
      expect(loop.fixedTime).toBeCloseTo(80 / 60, 9);
      // every tick keeps delta = 1/60
      expect(new Set(probe.physicsDeltas)).toEqual(new Set([1 / 60]));
      if (jitterFix === 0) {
        expect(dropped).toEqual([4, 4, 4, 4, 4, 4, 4, 4, 4, 4]);
        // _process gets the game time actually simulated (Godot subtracts the dropped steps too)
        for (const delta of probe.processDeltas) expect(delta).toBeCloseTo(8 / 60, 9);
      } else {
        // the jitter fix may borrow part of a step in the first frame; the rest drop 4 steps each
        expect(dropped.slice(1)).toEqual([4, 4, 4, 4, 4, 4, 4, 4, 4]);
      }
    },
  );

  it('above 7.5 fps nothing is dropped (10 fps runs 6 steps a frame)', () => {
    const loop = new FixedLoop({ ...presets.godot, jitterFix: 0 });
    const engine = new GodotEngine(loop);
    const probe = new Probe();
    engine.root.add_child(probe);
    for (let frame = 0; frame < 5; frame++) loop.advance(0.1);
    expect(probe.physicsDeltas).toHaveLength(30);
    expect(loop.stats.droppedTime).toBe(0);
  });
});

describe('GodotEngine: get_physics_interpolation_fraction', () => {
  it("equals the loop's alpha after every frame (60 Hz physics on a 144 Hz display)", () => {
    const loop = new FixedLoop({ tickRate: 60 });
    const engine = new GodotEngine(loop);
    const seen: number[] = [];
    const probe = new (class extends Node {
      override _process(): void {
        seen.push(engine.get_physics_interpolation_fraction());
      }
    })();
    engine.root.add_child(probe);
    const alphas: number[] = [];
    for (let i = 0; i < 6; i++) alphas.push(loop.advance(1 / 144).alpha);

    expect(seen).toEqual(alphas);
    expect(seen.map((a) => Math.round(a * 100) / 100)).toEqual([0.42, 0.83, 0.25, 0.67, 0.08, 0.5]);
    expect(engine.get_physics_interpolation_fraction()).toBe(loop.alpha);
  });
});

describe('GodotEngine: physics_interpolation_mode', () => {
  it('INHERIT takes the nearest ON/OFF up the tree, and the root counts as ON', () => {
    const engine = new GodotEngine(new FixedLoop());
    const a = new Node('A');
    const b = new Node('B');
    const c = new Node('C');
    const d = new Node('D');
    const e = new Node('E');
    engine.root.add_child(a);
    a.add_child(b);
    b.add_child(c);
    c.add_child(d);
    d.add_child(e);
    b.physics_interpolation_mode = OFF;
    d.physics_interpolation_mode = ON;

    const resolved = () => [engine.root, a, b, c, d, e].map((n) => n.is_physics_interpolated());
    expect(a.physics_interpolation_mode).toBe(INHERIT);
    expect(resolved()).toEqual([true, true, false, false, true, true]);

    engine.root.physics_interpolation_mode = OFF;
    expect(resolved()).toEqual([false, false, false, false, true, true]);

    d.physics_interpolation_mode = INHERIT;
    engine.root.physics_interpolation_mode = INHERIT;
    expect(resolved()).toEqual([true, true, false, false, false, false]);
  });

  it('is_physics_interpolated_and_enabled also needs the tree and its global switch', () => {
    const engine = new GodotEngine(new FixedLoop());
    const inTree = new Node();
    const loose = new Node();
    engine.root.add_child(inTree);
    expect([inTree.is_physics_interpolated_and_enabled(), loose.is_physics_interpolated()]).toEqual(
      [true, true],
    );
    expect(loose.is_physics_interpolated_and_enabled()).toBe(false);
    engine.physics_interpolation = false;
    expect(inTree.is_physics_interpolated_and_enabled()).toBe(false);
    expect(Node.PHYSICS_INTERPOLATION_MODE_OFF).toBe(OFF);
  });
});

describe('GodotEngine: reset_physics_interpolation', () => {
  function tree() {
    const engine = new GodotEngine(new FixedLoop());
    const log: string[] = [];
    class Tracked extends Node {
      override _notification(what: number): void {
        if (what === NOTIFICATION_RESET_PHYSICS_INTERPOLATION) log.push(`notify ${this.name}`);
      }
    }
    const a = new Tracked('A');
    const b = new Tracked('B');
    const c = new Tracked('C');
    const d = new Tracked('D');
    engine.root.add_child(a);
    a.add_child(b);
    b.add_child(c);
    engine.root.add_child(d);
    engine.onResetPhysicsInterpolation((node) => log.push(`hook ${node.name}`));
    return { engine, log, a, b, c, d };
  }

  it('reaches the node and every descendant, parents first, and nothing else', () => {
    const { log, a } = tree();
    a.reset_physics_interpolation();
    expect(log).toEqual(['notify A', 'hook A', 'notify B', 'hook B', 'notify C', 'hook C']);
  });

  it('lets an adapter map each node to the object it resets', () => {
    const { engine, b, c } = tree();
    const objectOf = new Map<Node, { resets: number }>([
      [b, { resets: 0 }],
      [c, { resets: 0 }],
    ]);
    const off = engine.onResetPhysicsInterpolation((node) => {
      const object = objectOf.get(node);
      if (object) object.resets++;
    });
    b.reset_physics_interpolation();
    c.reset_physics_interpolation();
    off();
    b.reset_physics_interpolation();
    expect([objectOf.get(b)?.resets, objectOf.get(c)?.resets]).toEqual([1, 2]);
  });

  it('does nothing outside the tree or with physics_interpolation off, as in Godot', () => {
    const { engine, log, a, d } = tree();
    engine.root.remove_child(d);
    d.reset_physics_interpolation();
    engine.physics_interpolation = false;
    a.reset_physics_interpolation();
    expect(log).toEqual([]);
  });
});

describe('GodotEngine: Engine members and the frame counters', () => {
  it('maps every property onto the loop and validates with Godot names', () => {
    const loop = new FixedLoop();
    const engine = new GodotEngine(loop);
    engine.physics_ticks_per_second = 120;
    engine.max_physics_steps_per_frame = 4;
    engine.physics_jitter_fix = 0.5;
    engine.time_scale = 0.25;
    expect([loop.fixedDelta, loop.maxStepsPerFrame, loop.jitterFix, loop.timeScale]).toEqual([
      1 / 120,
      4,
      0.5,
      0.25,
    ]);
    expect(engine.physics_ticks_per_second).toBe(120);
    expect(() => {
      engine.physics_ticks_per_second = 59.94;
    }).toThrow(/"physics_ticks_per_second".*59\.94/);
    expect(() => {
      engine.max_physics_steps_per_frame = 0;
    }).toThrow(/"max_physics_steps_per_frame"/);
    expect(() => {
      engine.physics_jitter_fix = 3;
    }).toThrow(/"physics_jitter_fix"/);
    expect(() => {
      engine.time_scale = -1;
    }).toThrow(/"time_scale"/);
  });

  it('is_in_physics_frame, get_physics_frames and get_process_frames count as Godot does', () => {
    const loop = new FixedLoop({ tickRate: 60 });
    const engine = new GodotEngine(loop);
    const log: string[] = [];
    engine.root.add_child(
      new (class extends Node {
        override _physics_process(): void {
          log.push(`physics ${engine.is_in_physics_frame()} ${engine.get_physics_frames()}`);
        }
        override _process(): void {
          log.push(`process ${engine.is_in_physics_frame()} ${engine.get_process_frames()}`);
        }
      })(),
    );
    loop.advance(2 / 60);
    loop.advance(1 / 60);
    expect(log).toEqual([
      'physics true 1',
      'physics true 2',
      'process false 0',
      'physics true 3',
      'process false 1',
    ]);
    expect([engine.get_physics_frames(), engine.get_process_frames()]).toEqual([3, 2]);
  });

  it('processes the tree depth first, honours set_process, and isolates a throwing node', () => {
    const loop = new FixedLoop({ tickRate: 60 });
    const engine = new GodotEngine(loop);
    const errors: unknown[] = [];
    loop.onError((error) => errors.push(error));
    const order: string[] = [];
    class Named extends Node {
      override _physics_process(): void {
        order.push(this.name);
        if (this.name === 'boom') throw new Error('boom');
      }
    }
    const a = new Named('a');
    const a1 = new Named('a1');
    const b = new Named('b');
    const boom = new Named('boom');
    engine.root.add_child(a);
    engine.root.add_child(b);
    a.add_child(boom);
    a.add_child(a1); // added last, but runs before b: tree order, not subscription order
    loop.advance(1 / 60);
    expect(order).toEqual(['a', 'boom', 'a1', 'b']);
    expect(errors).toHaveLength(1);

    order.length = 0;
    a.set_physics_process(false);
    expect(a.is_physics_processing()).toBe(false);
    expect(a.get_physics_process_delta_time()).toBe(1 / 60);
    loop.advance(1 / 60);
    expect(order).toEqual(['boom', 'a1', 'b']);

    engine.dispose();
    order.length = 0;
    loop.advance(1 / 60);
    expect(order).toEqual([]);
  });

  it('calls _enter_tree, _ready (once, children first) and _exit_tree', () => {
    const engine = new GodotEngine(new FixedLoop());
    const log: string[] = [];
    class Life extends Node {
      override _enter_tree(): void {
        log.push(`enter ${this.name}`);
      }
      override _ready(): void {
        log.push(`ready ${this.name}`);
      }
      override _exit_tree(): void {
        log.push(`exit ${this.name}`);
      }
    }
    const parent = new Life('parent');
    parent.add_child(new Life('child'));
    engine.root.add_child(parent);
    engine.root.remove_child(parent);
    engine.root.add_child(parent);
    expect(log).toEqual([
      'enter parent',
      'enter child',
      'ready child',
      'ready parent',
      'exit child',
      'exit parent',
      'enter parent',
      'enter child',
    ]);
    expect(() => engine.root.add_child(parent)).toThrow(/already has a parent/);
    engine.root.remove_child(parent);
    expect(() => parent.get_child(0)?.add_child(parent)).toThrow(/descendant/);
    expect(() => engine.root.remove_child(new Node('stranger'))).toThrow(/not a child/);
  });
});
