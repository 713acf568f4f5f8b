/**
 * The worker's end of the channel to the main thread: the Web worker's global scope
 * (`self.postMessage`, `message` events) or, under Node, `worker_threads`' `parentPort` — found
 * at run time, so one worker module runs in both.
 */
import type { FromWorker, ToWorker } from './protocol.ts';

/**
 * The worker's end of the channel, for a worker that is neither a Web Worker nor a Node
 * `worker_thread`: where `runPhysicsWorker` posts its messages and hears the main thread's.
 * The messages are Fixedtick's own; pass them through untouched.
 */
export interface PhysicsWorkerPort {
  /** Sends `message` to the main thread, moving the buffers in `transfer`. */
  postMessage(message: unknown, transfer?: Transferable[]): void;
  /** Calls `listener` with each message from the main thread. */
  listen(listener: (message: unknown) => void): void;
}

/** The port as `runPhysicsWorker` uses it: the messages typed. @internal */
export interface ListeningPort {
  postMessage(message: FromWorker, transfer?: Transferable[]): void;
  listen(listener: (message: ToWorker) => void): void;
}

/** Node's `MessagePort` (`parentPort`), as much as is used here. */
interface NodePort {
  postMessage(message: unknown, transfer?: readonly unknown[]): void;
  on(event: 'message', listener: (message: unknown) => void): void;
}

/** A Web worker's global scope, as much as is used here. */
interface WebWorkerScope {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

/** `parentPort` of `worker_threads` (Node); the specifier is hidden from bundlers. */
async function nodeParentPort(): Promise<NodePort | null> {
  const specifier = 'node:worker_threads';
  const threads = (await import(/* @vite-ignore */ specifier)) as { parentPort: NodePort | null };
  return threads.parentPort;
}

/**
 * The channel of the thread this runs in: a Web worker's scope (at once, so that no message is
 * missed), else Node's `parentPort` (which keeps messages until a listener comes).
 */
export function currentPort(): ListeningPort | Promise<ListeningPort> {
  const scope = globalThis as unknown as Partial<WebWorkerScope> & {
    process?: { versions?: { node?: string } };
  };
  const isWebWorker =
    typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope === 'function';
  if (!isWebWorker && scope.process?.versions?.node !== undefined) {
    return nodeParentPort().then((port) => {
      if (port === null) {
        throw new Error('fixedtick: runPhysicsWorker must run in a worker thread (no parentPort)');
      }
      return {
        postMessage: (message, transfer) => port.postMessage(message, transfer),
        listen: (listener) => port.on('message', (message) => listener(message as ToWorker)),
      };
    });
  }
  const web = scope as WebWorkerScope;
  if (typeof web.postMessage !== 'function' || typeof web.addEventListener !== 'function') {
    throw new Error('fixedtick: runPhysicsWorker must run in a Web Worker or a worker thread');
  }
  return {
    postMessage: (message, transfer) => web.postMessage(message, transfer ?? []),
    listen: (listener) =>
      web.addEventListener('message', (event) => listener(event.data as ToWorker)),
  };
}
