/**
 * `@fixedtick/core/net`: the fixed tick across the network, for any transport — a client's
 * {@link TickClock} (server ticks on the local clock, drift corrected smoothly, adaptive render
 * delay), {@link RemoteEntities} drawn from tick-stamped snapshots through the pose store, {@link Prediction} of the
 * local player with rewind and replay, and the server's {@link TickInputQueue} that delivers
 * each client's input to the tick it is stamped for. `@fixedtick/colyseus` runs them in a
 * Colyseus room; docs/multiplayer.md shows them on another transport.
 * @packageDocumentation
 */
export {
  type InputReceipt,
  TickInputQueue,
  type TickInputQueueOptions,
  type TickInputQueueStats,
} from '../net/input-queue.ts';
export {
  type PredictedSimulation,
  Prediction,
  type PredictionOptions,
  type PredictionStats,
} from '../net/prediction.ts';
export {
  type EntityId,
  type EntityTarget,
  RemoteEntities,
  type RemoteEntitiesOptions,
  type StreamFactory,
} from '../net/remote-entities.ts';
export { TickClock, type TickClockOptions } from '../net/tick-clock.ts';
export {
  type InputCommand,
  isTickInputEvent,
  type TickInput,
  type TickInputEvent,
  TickInputState,
} from '../net/tick-input.ts';
