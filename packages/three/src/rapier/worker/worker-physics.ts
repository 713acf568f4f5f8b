/**
 * The main thread's side of physics in a worker (docs/rapier.md, "Physics in a worker"): the
 * loop's clock, the input latch, rendering and the meshes stay here; the Rapier `World` and the
 * step code that touches bodies run in the worker module (`runPhysicsWorker`).
 *
 * Each fixed step of the loop sends "step tick N" with the events the input latch delivered to
 * tick N. Each frame the poses the worker published since the last frame (read from the shared
 * ring, or received as message packets) go into a `PoseStream` of the loop's tracker, which draws
 * the bound meshes and instances interpolated, `delay` behind the loop's present.
 */
import type { Unsubscribe } from '@fixedtick/core';
import {
  kindError,
  type PoseFrame,
  type PoseStream,
  type QuaternionLike,
  type Vector3Like,
} from '@fixedtick/core/tracking';
import type { InstancedMesh, Object3D } from 'three';
import type { ThreeFixedLoop } from '../../three-fixed-loop.ts';
import { CommandSender } from './command-sender.ts';
import { FrameIntake } from './frame-intake.ts';
import { holdDrawnPose } from './hold-drawn-pose.ts';
import {
  connectWorker,
  type MainPort,
  type NodeWorkerLike,
  type WebWorkerLike,
} from './main-side-port.ts';
import { PoseFeed } from './pose-feed.ts';
import type { FromWorker } from './protocol.ts';
import { FaultQueue, stepError, WorkerPhysicsError } from './worker-faults.ts';
import {
  type CheckedWorkerOptions,
  checkWorkerOptions,
  type WorkerPhysicsOptions,
  type WorkerTransport,
} from './worker-options.ts';
import { checkBodyId } from './worker-scope.ts';

/** Where a `WorkerPhysics` is in its life. */
export type WorkerStatus = 'starting' | 'running' | 'hung' | 'stopped' | 'disposed';

/**
 * Rapier in a worker, drawn on the main thread: see the module doc and docs/rapier.md.
 *
 * @example
 * ```ts
 * const loop = new ThreeFixedLoop({ renderer, scene, camera, tickRate: 60 });
 * const input = new InputLatch(loop);
 * const worker = new Worker(new URL('./physics.worker.ts', import.meta.url), { type: 'module' });
 * const physics = new WorkerPhysics(loop, worker, { input });
 * physics.bind(1, crate); // id 1: the body the worker published with scope.add(1, body)
 * await physics.ready;
 * loop.start();
 * ```
 */
export class WorkerPhysics {
  /** The loop whose ticks the worker steps. */
  readonly loop: ThreeFixedLoop;
  /** How poses travel: `'shared'` (a `SharedArrayBuffer` ring) or `'message'` (packets). */
  readonly transport: WorkerTransport;
  /** Resolves when the worker's set-up is done; rejects if it threw or the worker stopped first. */
  readonly ready: Promise<void>;
  readonly #options: CheckedWorkerOptions;
  readonly #port: MainPort;
  readonly #stream: PoseStream<Object3D>;
  readonly #feed: PoseFeed<Object3D>;
  readonly #faults = new FaultQueue();
  readonly #unsubscribe: Unsubscribe[] = [];
  readonly #messageListeners = new Set<(data: unknown) => void>();
  readonly #syncs = new Map<number, { resolve(tick: number): void; reject(e: unknown): void }>();
  /** The error the worker stopped with, once it has. */
  #stoppedBy: WorkerPhysicsError | undefined;
  #settle: { resolve(): void; reject(error: unknown): void } | undefined;
  readonly #intake: FrameIntake<Object3D>;
  readonly #commands: CommandSender;
  #status: WorkerStatus = 'starting';
  /** The tick of the frame the last step sent will publish (the loop's tick after it). */
  #sentTick = 0;
  /** The tick sent last when the worker became ready (the hang limit counts from there). */
  #readyTick = 0;
  #nextSync = 1;
  /** The `fixedDelta` the stream's delay was set for. */
  #delayFor = 0;
  /** The newest tick taken when the worker was found hung. */
  #hungAt = 0;

  /**
   * @param loop the `ThreeFixedLoop` whose fixed steps step the worker's world.
   * @param worker a Web `Worker` or a Node `worker_threads` `Worker` running a module that calls
   *   `runPhysicsWorker`; `dispose()` ends it.
   * @param options see {@link WorkerPhysicsOptions}; a bad value throws a `RangeError` naming it.
   */
  constructor(
    loop: ThreeFixedLoop,
    worker: WebWorkerLike | NodeWorkerLike,
    options: WorkerPhysicsOptions = {},
  ) {
    if (typeof loop?.addAdapter !== 'function' || typeof loop.tracker?.stream !== 'function') {
      throw kindError('loop', loop, 'a ThreeFixedLoop');
    }
    this.#options = checkWorkerOptions(options);
    this.loop = loop;
    this.transport = this.#options.transport;
    this.#port = connectWorker(worker, {
      message: (message) => this.#receive(message),
      error: (error) =>
        this.#fault(
          new WorkerPhysicsError(
            'step',
            this.#intake.newestTick,
            `fixedtick: the physics worker threw outside its step: ${error.message}`,
            { cause: error },
          ),
        ),
      exit: (code, cause) => this.#stopped(code, cause),
    });
    this.#commands = new CommandSender(this.#port, this.transport === 'shared');
    this.ready = new Promise<void>((resolve, reject) => {
      this.#settle = { resolve, reject };
    });
    // nobody awaiting `ready` is not an unhandled rejection: faults reach onError anyway
    this.ready.catch(() => undefined);
    this.#stream = loop.tracker.stream({ delay: this.#options.delay ?? 2 * loop.fixedDelta });
    this.#feed = new PoseFeed(this.#stream);
    this.#intake = new FrameIntake(this.#feed);
    this.#unsubscribe.push(
      loop.addAdapter({
        beginFrame: (frame) => this.#beginFrame(frame.fixedDelta),
        physicsStep: (fixedDelta, frame) => this.#step(frame.tick, fixedDelta),
        interpolate: () => this.#checkHang(),
        detach: () => this.dispose(),
      }),
    );
    const input = this.#options.input;
    if (input !== undefined) this.#unsubscribe.push(input.onInput(this.#commands.collect));
    this.#port.post({
      type: 'init',
      shared: this.transport === 'shared',
      capacity: this.#options.capacity,
      steps: this.#commands.stepBuffer,
    });
  }

  /** Where the worker is: starting (set-up running), running, hung, stopped, or disposed. */
  get status(): WorkerStatus {
    return this.#status;
  }

  /** The newest tick the worker published and this side has taken (0 before the first). */
  get newestTick(): number {
    return this.#intake.newestTick;
  }

  /** The stream the bodies are drawn through (its `delay`, `lateSnapshots`, bound `ids`). */
  get stream(): PoseStream<Object3D> {
    return this.#stream;
  }

  /**
   * Draws the worker's body `id` into `object3d` — or, with `index`, into that instance of the
   * `InstancedMesh` `object3d` — interpolated, from the next frame the worker publishes; until
   * then it stays where it is. Rapier's poses are world space: bind objects that sit in world
   * space (children of the scene, or of untransformed groups). Binding a bound id moves it.
   */
  bind(id: number, object3d: Object3D, index = -1): void {
    this.#alive();
    checkBodyId(id);
    const tracker = this.loop.tracker;
    // a whole object or an instance is tracked here if it is not yet (as RapierPhysics.add does)
    if (index < 0 && !tracker.isTracked(object3d)) tracker.track(object3d);
    if (index >= 0 && tracker.slotOf(object3d, index) === undefined) {
      this.loop.trackInstance(object3d as InstancedMesh, index);
    }
    const scale = tracker.getSimulationPose(object3d, index).scale;
    this.#feed.bind(id, { node: object3d, index, scale });
  }

  /** Stops drawing body `id` (its object stays where it was drawn last); false if not bound. */
  unbind(id: number): boolean {
    const binding = this.#feed.unbind(id);
    if (binding === undefined) return false;
    holdDrawnPose(this.loop.tracker, binding.node, binding.index);
    return true;
  }

  /**
   * Moves body `id` to `position` (and `rotation`, if given) at the next tick boundary, in order
   * with the other commands: the worker applies it before that tick's step code, wakes the body,
   * keeps its velocity, and marks it teleported — drawn there in the frame of that tick, with no
   * streak.
   */
  teleport(id: number, position: Vector3Like, rotation?: QuaternionLike): void {
    this.#alive();
    checkBodyId(id);
    const p = [position?.x, position?.y, position?.z];
    const r = rotation === undefined ? null : [rotation.x, rotation.y, rotation.z, rotation.w];
    if (!p.every(Number.isFinite) || (r !== null && !r.every(Number.isFinite))) {
      throw new RangeError(
        'fixedtick: option "position" (and "rotation") must hold finite numbers { x, y, z (, w) }',
      );
    }
    this.#commands.send({ type: 'teleport', id, position: p, rotation: r });
  }

  /**
   * Sends `data` (structured-cloneable) to the worker's `onMessage`, at the next tick boundary:
   * after the step of the last tick the loop ran, before the next.
   */
  post(data: unknown): void {
    this.#alive();
    this.#commands.send({ type: 'message', data });
  }

  /** Calls `listener` with each message the worker sends (`scope.post`). Returns the unsubscribe. */
  onMessage(listener: (data: unknown) => void): Unsubscribe {
    this.#messageListeners.add(listener);
    return () => this.#messageListeners.delete(listener);
  }

  /**
   * Calls `listener` with each frame the worker published, as this side takes it (in order, at
   * the start of a frame; over messages, when it arrives): its tick, ids, flags and rows
   * (position, rotation, linear and angular velocity). Valid during the call only.
   */
  onFrame(listener: (frame: Readonly<PoseFrame>) => void): Unsubscribe {
    return this.#intake.onFrame(listener);
  }

  /**
   * Resolves, with the newest tick published, once the worker has done every command sent so
   * far (the steps included) and this side has taken their frames: for tests and servers that
   * must see tick N before going on. Rejects if the worker stops first.
   */
  synced(): Promise<number> {
    this.#alive();
    if (this.#stoppedBy !== undefined) return Promise.reject(this.#stoppedBy);
    const id = this.#nextSync++;
    return new Promise<number>((resolve, reject) => {
      this.#syncs.set(id, { resolve, reject });
      this.#commands.send({ type: 'sync', id });
    });
  }

  /**
   * Ends the worker and stops stepping: the bound objects stay where they were drawn last, and
   * are unbound. Safe to call twice.
   */
  dispose(): void {
    if (this.#status === 'disposed') return;
    this.#status = 'disposed';
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    for (const id of this.#stream.ids) this.unbind(id);
    this.#port.close();
    this.#settle?.reject(
      new Error('fixedtick: WorkerPhysics disposed before the worker was ready'),
    );
    this.#settle = undefined;
  }

  #beginFrame(fixedDelta: number): void {
    // the default delay follows the loop's step; set only when the step changes (a number
    // written anew every frame would be boxed anew every frame)
    if (fixedDelta !== this.#delayFor) {
      this.#delayFor = fixedDelta;
      this.#stream.delay = this.#options.delay ?? 2 * fixedDelta;
    }
    this.#intake.readRing();
    this.#caughtUp();
    this.#commands.flush();
    this.#faults.throwNext();
  }

  /** After the frame's steps: a worker more than `hangTicks` behind them is hung (said once). */
  #checkHang(): void {
    const published = this.#intake.newestTick;
    const behind = this.#sentTick - Math.max(published, this.#readyTick);
    if (this.#status === 'running' && behind > this.#options.hangTicks) {
      this.#status = 'hung';
      this.#hungAt = published;
      this.#fault(
        new WorkerPhysicsError(
          'hung',
          published,
          `fixedtick: the physics worker is ${behind} ticks behind (hangTicks: ${this.#options.hangTicks}; last frame: tick ${published}, loop at tick ${this.#sentTick}); its bodies keep their last poses`,
        ),
      );
    }
    this.#faults.throwNext();
  }

  #step(tick: number, fixedDelta: number): void {
    if (this.#status === 'stopped' || this.#status === 'disposed') return;
    this.#sentTick = tick + 1;
    this.#commands.step(tick, fixedDelta);
  }

  #receive(message: FromWorker): void {
    switch (message.type) {
      case 'ready':
        if (message.buffer !== null) this.#intake.attach(message.buffer);
        this.#commands.wake = message.wake;
        this.#readyTick = this.#sentTick;
        if (this.#status === 'starting') this.#status = 'running';
        this.#settle?.resolve();
        this.#settle = undefined;
        return;
      case 'ring':
        this.#intake.attach(message.buffer);
        return;
      case 'frame':
        this.#intake.takePacket(message.buffer);
        this.#port.post({ type: 'recycle', buffer: message.buffer }, [message.buffer]);
        this.#caughtUp();
        return;
      case 'error': {
        const error = stepError(message.tick, message.name, message.message, message.stack);
        if (this.#settle !== undefined) {
          this.#settle.reject(error);
          this.#settle = undefined;
        }
        this.#fault(error);
        return;
      }
      case 'message':
        for (const listener of this.#messageListeners) listener(message.data);
        return;
      case 'synced':
        this.#intake.readRing();
        this.#caughtUp();
        this.#syncs.get(message.id)?.resolve(this.#intake.newestTick);
        this.#syncs.delete(message.id);
        return;
    }
  }

  #stopped(code: number, cause: Error | undefined): void {
    if (this.#status === 'disposed' || this.#status === 'stopped') return;
    this.#status = 'stopped';
    const error = new WorkerPhysicsError(
      'stopped',
      this.#intake.newestTick,
      `fixedtick: the physics worker stopped (exit code ${code}) after tick ${this.#intake.newestTick}; its bodies keep their last poses`,
      { cause },
    );
    this.#stoppedBy = error;
    this.#settle?.reject(error);
    this.#settle = undefined;
    for (const sync of this.#syncs.values()) sync.reject(error);
    this.#syncs.clear();
    this.#fault(error);
  }

  /** A hung worker that published a frame since is running again. */
  #caughtUp(): void {
    if (this.#status === 'hung' && this.#intake.newestTick > this.#hungAt) this.#status = 'running';
  }

  #fault(error: WorkerPhysicsError): void {
    if (this.#status !== 'disposed') this.#faults.add(error);
  }

  #alive(): void {
    if (this.#status === 'disposed') throw new Error('fixedtick: this WorkerPhysics is disposed');
  }
}
