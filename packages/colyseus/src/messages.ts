/**
 * The message types a {@link FixedTickRoom} understands and sends, so clients use the same names.
 */

/**
 * Client → server: one `InputCommand` (`{ tick, events }`) per predicted tick, the events
 * the client's latch delivered in it (`Prediction.step()` returns it).
 */
export const INPUT_MESSAGE = 'ft:input';

/** Client → server: a ping carrying the client's clock reading (ms), answered by {@link PONG_MESSAGE}. */
export const PING_MESSAGE = 'ft:ping';

/**
 * Server → client: `[clientMs, tick]`, the ping's own reading sent back with the server's next
 * tick to run: the client measures the round trip (`TickClock.observeRoundTrip`).
 */
export const PONG_MESSAGE = 'ft:pong';
