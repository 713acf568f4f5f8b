/**
 * The worker side of `WorkerPhysics`: the user's worker module calls {@link runPhysicsWorker}
 * with a set-up callback that makes the Rapier `World` and its bodies and returns the fixed-step
 * code. From then on the main thread drives it tick by tick; each tick here:
 *
 * 1. the commands sent before it, in order (teleports, user messages), as they arrived;
 * 2. the user's `fixedUpdate` with the tick's latched input;
 * 3. `world.step()` with `timestep = fixedDelta`;
 * 4. the user's `postSimulation`;
 * 5. every published body's pose and velocities, stamped with the tick after the step (the
 *    state after tick N is the loop's tick N + 1, as `loop.tick` reads after the step), into the shared ring
 *    (or a message packet without `SharedArrayBuffer`).
 *
 * An error thrown by the user's code is sent to the main thread (its loop's `onError`, with the
 * worker's stack) and the tick goes on: the world is still stepped and the poses published, as
 * the main-thread loop goes on after a throwing `fixedUpdate`.
 */
import { TickInputState } from '@fixedtick/core/net';
import { PoseRing } from '@fixedtick/core/tracking';
import type { RapierRigidBody } from '../rapier-types.ts';
import { PacketWriter } from './frame-packets.ts';
import type { FromWorker, InputEvents, OrderedToWorker, ToWorker } from './protocol.ts';
import { type FrameTarget, PublishedBodies } from './published-bodies.ts';
import { StepReader } from './step-channel.ts';
import {
  checkBodyId,
  checkWorkerBody,
  type PhysicsWorkerCode,
  type PhysicsWorkerScope,
  type PhysicsWorkerSetup,
  type WorkerRotation,
  type WorkerVector,
} from './worker-scope.ts';
import { currentPort, type ListeningPort, type PhysicsWorkerPort } from './worker-side-port.ts';

/** Options of {@link runPhysicsWorker}. */
export interface RunPhysicsWorkerOptions {
  /**
   * The channel to the main thread, for a worker that is neither a Web Worker nor a Node
   * `worker_thread` (or to pass `parentPort` yourself).
   * @defaultValue the current Web worker's scope, or Node's `parentPort`
   */
  port?: PhysicsWorkerPort;
}

/** The worker's state: the user's code, its bodies, where frames go. */
class PhysicsWorkerHost implements PhysicsWorkerScope {
  tick = 0;
  fixedDelta = 0;
  readonly input = new TickInputState();
  readonly bodies = new PublishedBodies();
  readonly #port: ListeningPort;
  #code: PhysicsWorkerCode | undefined;
  #target: FrameTarget | undefined;
  #packets: PacketWriter | undefined;
  #ring: PoseRing | undefined;
  /** Messages that came before the set-up finished. */
  #queued: ToWorker[] | undefined = [];
  /** Shared transport: the step channel, the messages waiting for their turn, their count. */
  #steps: StepReader | undefined;
  readonly #inbox: OrderedToWorker[] = [];
  #received = 0;
  #pumping = false;
  /** Shared transport: input events by tick, until their step. */
  readonly #inputs = new Map<number, InputEvents>();
  readonly #setup: PhysicsWorkerSetup;
  readonly #vector = { x: 0, y: 0, z: 0 };
  readonly #rotation = { x: 0, y: 0, z: 0, w: 1 };

  constructor(port: ListeningPort, setup: PhysicsWorkerSetup) {
    this.#port = port;
    this.#setup = setup;
    port.listen((message) => {
      if (this.#queued !== undefined && message.type !== 'init') this.#queued.push(message);
      else this.#receive(message);
    });
  }

  add(id: number, body: RapierRigidBody): void {
    checkBodyId(id);
    checkWorkerBody(body);
    this.bodies.add(id, body);
  }

  remove(id: number): boolean {
    return this.bodies.remove(id);
  }

  body(id: number): RapierRigidBody | undefined {
    return this.bodies.body(id);
  }

  teleport(id: number, position: WorkerVector, rotation?: WorkerRotation): void {
    const body = this.bodies.body(id);
    if (body === undefined) {
      throw new RangeError(
        `fixedtick: option "id" must be a published body's id, got ${String(id)}`,
      );
    }
    const v = this.#vector;
    v.x = position.x;
    v.y = position.y;
    v.z = position.z;
    body.setTranslation(v, true);
    if (rotation !== undefined) {
      const q = this.#rotation;
      q.x = rotation.x;
      q.y = rotation.y;
      q.z = rotation.z;
      q.w = rotation.w;
      body.setRotation(q, true);
    }
    this.bodies.markTeleported(id);
  }

  post(data: unknown): void {
    this.#send({ type: 'message', data });
  }

  #send(message: FromWorker, transfer?: Transferable[]): void {
    this.#port.postMessage(message, transfer);
  }

  /** Any message from the main thread, once the set-up is done. */
  #receive(message: ToWorker): void {
    switch (message.type) {
      case 'init':
        void this.#start(message.shared, message.capacity, message.steps);
        return;
      case 'recycle':
        this.#packets?.recycle(message.buffer);
        return;
      case 'wake':
        this.#pump();
        return;
      default:
        if (this.#steps === undefined) {
          this.#apply(message);
          return;
        }
        this.#received++;
        this.#inbox.push(message);
        this.#pump();
    }
  }

  /**
   * Shared transport: runs the written steps and the received messages in the order the main
   * thread sent them (step-channel.ts), then sleeps until the next step is written.
   */
  #pump(): void {
    const steps = this.#steps;
    if (steps === undefined || this.#code === undefined) return;
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      for (;;) {
        const head = this.#inbox[0];
        if (head !== undefined && (head.steps ?? 0) <= steps.done) {
          this.#inbox.shift();
          this.#apply(head);
          continue;
        }
        const step = steps.peek();
        if (step === undefined || step.posted > this.#received) break;
        const input = this.#inputs.get(step.tick) ?? null;
        if (input !== null) this.#inputs.delete(step.tick);
        this.#step(step.tick, step.fixedDelta, input);
        steps.finish();
      }
    } finally {
      this.#pumping = false;
    }
    steps.sleep(this.#wake);
  }

  readonly #wake = (): void => this.#pump();

  /** A message ordered with the steps, at its turn. */
  #apply(message: OrderedToWorker): void {
    switch (message.type) {
      case 'step':
        this.#step(message.tick, message.fixedDelta, message.input);
        return;
      case 'input':
        this.#inputs.set(message.tick, message.input);
        return;
      case 'teleport': {
        const [x, y, z] = message.position;
        const r = message.rotation;
        this.#guard(() =>
          this.teleport(
            message.id,
            { x, y, z },
            r === null ? undefined : { x: r[0], y: r[1], z: r[2], w: r[3] },
          ),
        );
        return;
      }
      case 'message':
        this.#guard(() => this.#code?.onMessage?.(message.data, this));
        return;
      case 'sync':
        this.#send({ type: 'synced', id: message.id, tick: this.tick });
        return;
    }
  }

  async #start(shared: boolean, capacity: number, steps: SharedArrayBuffer | null): Promise<void> {
    try {
      this.#code = await this.#setup(this);
    } catch (error) {
      this.#report(error);
      return;
    }
    const room = Math.max(capacity, this.bodies.size, 1);
    if (steps !== null) this.#steps = new StepReader(steps);
    const wake = this.#steps !== undefined && !this.#steps.canSleep;
    if (shared) {
      this.#ring = PoseRing.create(room, { shared: true });
      this.#target = this.#ring;
      this.#send({ type: 'ready', buffer: this.#ring.buffer, wake });
    } else {
      this.#packets = new PacketWriter(room, (buffer) =>
        this.#send({ type: 'frame', buffer }, [buffer]),
      );
      this.#target = this.#packets;
      this.#send({ type: 'ready', buffer: null, wake });
    }
    const queued = this.#queued ?? [];
    this.#queued = undefined;
    for (const message of queued) this.#receive(message);
    this.#pump();
  }

  #step(tick: number, fixedDelta: number, events: InputEvents | null): void {
    const code = this.#code;
    if (code === undefined) return;
    this.tick = tick;
    this.fixedDelta = fixedDelta;
    // the latch's rules, as core/net rebuilds a client's input on a server
    this.input.beginTick();
    if (events !== null) for (const event of events) this.input.apply(event);
    const world = code.world;
    world.timestep = fixedDelta;
    if (code.fixedUpdate !== undefined) this.#guard(() => code.fixedUpdate?.(this));
    this.#guard(() => world.step(code.events));
    if (code.postSimulation !== undefined) this.#guard(() => code.postSimulation?.(this));
    // stamped as the state after the step, as the loop's tick reads after it
    this.#guard(() => this.#publish(tick + 1));
  }

  #publish(tick: number): void {
    const target = this.#target as FrameTarget;
    if (this.bodies.size > target.capacity) this.#grow(this.bodies.size * 2);
    this.bodies.publish(this.#target as FrameTarget, tick);
  }

  /** More bodies than a frame has room for: a bigger ring (sent over) or bigger packets. */
  #grow(capacity: number): void {
    if (this.#packets !== undefined) {
      this.#packets.grow(capacity);
      return;
    }
    this.#ring = PoseRing.create(capacity, { shared: true });
    this.#target = this.#ring;
    this.#send({ type: 'ring', buffer: this.#ring.buffer });
  }

  #guard(run: () => void): void {
    try {
      run();
    } catch (error) {
      this.#report(error);
    }
  }

  #report(error: unknown): void {
    const e = error instanceof Error ? error : new Error(String(error));
    this.#send({
      type: 'error',
      tick: this.tick,
      name: e.name,
      message: e.message,
      stack: e.stack ?? `${e.name}: ${e.message}`,
    });
  }
}

/**
 * Runs this worker as the physics of a main thread's `WorkerPhysics`: call it once at the top of
 * your worker module. `setup` makes the Rapier `World` and its bodies, publishes them by id with
 * `scope.add(id, body)`, and returns the fixed-step code; it runs once, when the main side
 * connects. Everything about the world stays in this thread: the main thread sends ticks, input
 * and commands, and receives poses.
 *
 * @example
 * ```ts
 * // physics.worker.ts
 * import RAPIER from '@dimforge/rapier3d-compat';
 * import { runPhysicsWorker } from '@fixedtick/three/rapier/worker';
 *
 * runPhysicsWorker(async (scope) => {
 *   await RAPIER.init();
 *   const world = new RAPIER.World({ x: 0, y: -9.81, z: 0 });
 *   const body = world.createRigidBody(RAPIER.RigidBodyDesc.dynamic().setTranslation(0, 5, 0));
 *   world.createCollider(RAPIER.ColliderDesc.cuboid(0.5, 0.5, 0.5), body);
 *   scope.add(1, body); // the main thread binds a mesh to id 1
 *   return {
 *     world,
 *     fixedUpdate: ({ input }) => {
 *       if (input.pressed('Space')) body.applyImpulse({ x: 0, y: 5, z: 0 }, true);
 *     },
 *   };
 * });
 * ```
 */
export function runPhysicsWorker(
  setup: PhysicsWorkerSetup,
  options: RunPhysicsWorkerOptions = {},
): void {
  if (typeof setup !== 'function') {
    throw new TypeError(
      `fixedtick: runPhysicsWorker expects a set-up function, got ${typeof setup}`,
    );
  }
  if (options.port !== undefined) {
    new PhysicsWorkerHost(options.port as ListeningPort, setup);
    return;
  }
  const port = currentPort();
  if ('listen' in port) new PhysicsWorkerHost(port, setup);
  else void port.then((found) => new PhysicsWorkerHost(found, setup));
}
