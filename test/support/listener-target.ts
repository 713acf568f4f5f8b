/**
 * An event target that keeps the listeners added to it, so a test can call them directly with
 * events a real `EventTarget` would not let through (or whose throw it would report to the
 * process instead of the caller). Not a test file.
 */
export class ListenerTarget {
  readonly listeners = new Map<string, (event: Event) => void>();

  addEventListener(type: string, fn: (event: Event) => void): void {
    this.listeners.set(type, fn);
  }

  removeEventListener(type: string): void {
    this.listeners.delete(type);
  }

  /** Calls the listener of `type`, if any, with `event` as it is. */
  fire(type: string, event: object): void {
    this.listeners.get(type)?.(event as Event);
  }
}
