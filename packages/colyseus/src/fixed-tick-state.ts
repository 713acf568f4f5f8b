/**
 * The root of a {@link FixedTickRoom}'s state: a Colyseus schema whose `tick` field is the
 * server tick the state is the result of. Extend it with your own fields; every patch the room
 * sends carries the tick it was taken at.
 */
import { defineTypes, Schema } from '@colyseus/schema';

/**
 * Root state of a {@link FixedTickRoom}: `tick` is stamped by the room before each patch.
 *
 * @example
 * ```ts
 * class Arena extends FixedTickState {
 *   declare players: MapSchema<Player>;
 *   constructor() { super(); this.players = new MapSchema<Player>(); }
 * }
 * defineTypes(Arena, { players: { map: Player } });
 * ```
 */
export class FixedTickState extends Schema {
  /**
   * The server tick whose step produced this state (the step's number, from 0): the state after
   * the inputs stamped with this tick; -1 before the first step. Written by the room; read it,
   * do not write it.
   */
  declare tick: number;

  constructor() {
    super();
    this.tick = -1;
  }
}
// `declare` plus `defineTypes` rather than decorators: the schema's accessors must not be
// shadowed by class fields (TypeScript's `useDefineForClassFields` with ES2022 targets).
// int32: -1 before the first tick, and over a year of ticks at 60 Hz.
defineTypes(FixedTickState, { tick: 'int32' });
