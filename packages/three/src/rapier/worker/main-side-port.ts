/**
 * The main thread's end of the channel: a Web `Worker` or a Node `worker_threads` `Worker`,
 * behind one small interface, so `WorkerPhysics` takes either. How each reports a death differs:
 * a Node worker emits `error` (an uncaught exception) and then `exit`; a Web worker emits `error`
 * for an uncaught exception and lives on, and says nothing when it is terminated (the hang limit
 * finds that).
 */
import { kindError } from '@fixedtick/core/tracking';
import type { FromWorker, ToWorker } from './protocol.ts';

/** A Web `Worker`, as much of it as `WorkerPhysics` uses. */
export interface WebWorkerLike {
  /** Sends a message, moving the buffers in `transfer`. */
  postMessage(message: unknown, transfer: Transferable[]): void;
  /** Listens for `message` and `error` events. */
  addEventListener(type: string, listener: (event: Event) => void): void;
  /** Removes a listener added with `addEventListener`. */
  removeEventListener(type: string, listener: (event: Event) => void): void;
  /** Stops the worker at once. */
  terminate(): void;
}

/** A Node `worker_threads` `Worker`, as much of it as `WorkerPhysics` uses. */
export interface NodeWorkerLike {
  /** Sends a message, moving the buffers in `transferList`. */
  postMessage(message: unknown, transferList?: readonly Transferable[]): void;
  /** Listens for `message`, `error` and `exit`. */
  on(event: string, listener: (...args: never[]) => void): unknown;
  /** Removes a listener added with `on`. */
  off(event: string, listener: (...args: never[]) => void): unknown;
  /** Stops the worker (its `exit` event follows). */
  terminate(): unknown;
}

/** What the main side hears from its worker. @internal */
export interface MainPortListeners {
  /** A message from `runPhysicsWorker`. */
  message(message: FromWorker): void;
  /** An uncaught error in the worker (the worker may live on: Web). */
  error(error: Error): void;
  /** The worker is gone (Node), after `error` if an uncaught error ended it. */
  exit(code: number, cause: Error | undefined): void;
}

/** The main thread's end of the channel. @internal */
export interface MainPort {
  post(message: ToWorker, transfer?: Transferable[]): void;
  /** Stops listening and ends the worker. */
  close(): void;
}

/** An `Error` from whatever an `error` event carried. */
function asError(value: unknown): Error {
  if (value instanceof Error) return value;
  const event = value as { error?: unknown; message?: unknown } | null;
  if (event?.error instanceof Error) return event.error;
  return new Error(typeof event?.message === 'string' ? event.message : String(value));
}

/** Wraps `worker` (a Web `Worker` or a Node `Worker`); a `TypeError` for anything else. @internal */
export function connectWorker(
  worker: WebWorkerLike | NodeWorkerLike,
  listeners: MainPortListeners,
): MainPort {
  if (typeof (worker as NodeWorkerLike)?.on === 'function') {
    const node = worker as NodeWorkerLike;
    let cause: Error | undefined;
    const onMessage = (message: FromWorker) => listeners.message(message);
    // an uncaught exception ends a Node worker: kept for the exit report
    const onError = (error: unknown) => {
      cause = asError(error);
    };
    const onExit = (code: number) => listeners.exit(code, cause);
    node.on('message', onMessage);
    node.on('error', onError);
    node.on('exit', onExit);
    return {
      post: (message, transfer) => node.postMessage(message, transfer),
      close: () => {
        node.off('message', onMessage);
        node.off('error', onError);
        node.off('exit', onExit);
        void node.terminate();
      },
    };
  }
  if (typeof (worker as WebWorkerLike)?.addEventListener !== 'function') {
    throw kindError('worker', worker, 'a Worker (Web or worker_threads)');
  }
  const web = worker as WebWorkerLike;
  const onMessage = (event: Event) => listeners.message((event as MessageEvent<FromWorker>).data);
  const onError = (event: Event) => {
    (event as { preventDefault?: () => void }).preventDefault?.();
    listeners.error(asError(event));
  };
  web.addEventListener('message', onMessage);
  web.addEventListener('error', onError);
  return {
    post: (message, transfer) => web.postMessage(message, transfer ?? []),
    close: () => {
      web.removeEventListener('message', onMessage);
      web.removeEventListener('error', onError);
      web.terminate();
    },
  };
}
