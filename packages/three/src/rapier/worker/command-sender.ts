/**
 * The main side's commands to the worker, in order: steps (with the input events the latch
 * delivered to their tick), teleports, user messages, syncs. Over the shared transport a step is
 * written into the step channel (no message, no allocation) and the other commands are stamped
 * with the steps before them (step-channel.ts); over messages everything is one message each.
 */
import type { InputEventKind } from '@fixedtick/core/input';
import type { MainPort } from './main-side-port.ts';
import type { InputEvents, OrderedToWorker } from './protocol.ts';
import { StepWriter } from './step-channel.ts';

/** Sends commands in order; see the module doc. @internal */
export class CommandSender {
  readonly #port: MainPort;
  readonly #steps: StepWriter | undefined;
  /** The events the latch delivered since the last step (`null`: none, nothing allocated). */
  #events: InputEvents | null = null;
  /** The worker has no `Atomics.waitAsync`: wake it with a message after each step. */
  wake = false;

  /** @param shared steps over shared memory (the `'shared'` transport). */
  constructor(port: MainPort, shared: boolean) {
    this.#port = port;
    this.#steps = shared ? new StepWriter() : undefined;
  }

  /** The step channel's buffer, for the worker (`null` over messages). */
  get stepBuffer(): SharedArrayBuffer | null {
    return this.#steps?.buffer ?? null;
  }

  /** Keeps an input event for the next step (an `InputLatch.onInput` listener). */
  readonly collect = (
    _tick: number,
    kind: InputEventKind,
    key: string,
    x: number,
    y: number,
  ): void => {
    if (this.#events === null) this.#events = [];
    this.#events.push(kind === 'move' ? [kind, x, y] : [kind, key]);
  };

  /** Sends the step of `tick`, with the events kept since the last one. */
  step(tick: number, fixedDelta: number): void {
    const input = this.#events;
    this.#events = null;
    const steps = this.#steps;
    if (steps === undefined) {
      this.#port.post({ type: 'step', tick, fixedDelta, input });
      return;
    }
    if (input !== null) this.send({ type: 'input', tick, input });
    steps.write(tick, fixedDelta);
    if (this.wake) this.#port.post({ type: 'wake' });
  }

  /** Sends a command ordered with the steps. */
  send(message: OrderedToWorker): void {
    const steps = this.#steps;
    if (steps !== undefined) {
      message.steps = steps.written;
      steps.posted++;
    }
    this.#port.post(message);
  }

  /** Writes steps that waited for room in the channel (a worker far behind). */
  flush(): void {
    this.#steps?.flush();
  }
}
