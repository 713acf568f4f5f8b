/**
 * `@fixedtick/colyseus`: a Colyseus room simulated on Fixedtick's fixed tick — drift-free steps
 * from `nodeDriver`, clients' inputs delivered to the tick they are stamped for, state patches
 * stamped with the server tick. The client side (tick clock, snapshot interpolation, prediction)
 * is `@fixedtick/core/net`, which works with any transport. See docs/multiplayer.md.
 * @packageDocumentation
 */
export { type FixedTickOptions, FixedTickRoom } from './fixed-tick-room.ts';
export { FixedTickState } from './fixed-tick-state.ts';
export { INPUT_MESSAGE, PING_MESSAGE, PONG_MESSAGE } from './messages.ts';
