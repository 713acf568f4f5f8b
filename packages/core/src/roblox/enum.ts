/**
 * The two Roblox enums the timing API uses, shaped like Roblox's `EnumItem`s so ported Luau
 * keeps reading `Enum.RenderPriority.Camera.Value`.
 */

/** A Roblox `EnumItem`: its `Name`, its numeric `Value` and the name of its enum. */
export interface EnumItem<E extends string = string, N extends string = string> {
  /** The item's name, e.g. `'Camera'`. */
  readonly Name: N;
  /** The item's number, e.g. `200`. */
  readonly Value: number;
  /** The enum it belongs to, e.g. `'RenderPriority'`. */
  readonly EnumType: E;
}

function item<E extends string, N extends string>(
  enumType: E,
  name: N,
  value: number,
): EnumItem<E, N> {
  return Object.freeze({ Name: name, Value: value, EnumType: enumType });
}

/**
 * `Enum.RenderPriority`: the reserved priorities of `BindToRenderStep` (lower runs first).
 * Pass the item or its `Value`.
 * @see https://create.roblox.com/docs/reference/engine/enums/RenderPriority
 */
export const RenderPriority = Object.freeze({
  /** 0: runs first. */
  First: item('RenderPriority', 'First', 0),
  /** 100: input handling. */
  Input: item('RenderPriority', 'Input', 100),
  /** 200: camera updates. */
  Camera: item('RenderPriority', 'Camera', 200),
  /** 300: character updates that follow the camera. */
  Character: item('RenderPriority', 'Character', 300),
  /** 2000: runs last. */
  Last: item('RenderPriority', 'Last', 2000),
});

/**
 * `Enum.StepFrequency`: how often a `BindToSimulation` callback runs, as a divisor of the 60 Hz
 * simulation pipeline. Item values are Roblox's (0 to 5), not rates: `Hz30.Value` is 1.
 * @see https://create.roblox.com/docs/reference/engine/enums/StepFrequency
 */
export const StepFrequency = Object.freeze({
  /** Every 60 Hz step. */
  Hz60: item('StepFrequency', 'Hz60', 0),
  /** Every 2nd step. Roblox's default for `BindToSimulation`. */
  Hz30: item('StepFrequency', 'Hz30', 1),
  /** Every 4th step. */
  Hz15: item('StepFrequency', 'Hz15', 2),
  /** Every 6th step. */
  Hz10: item('StepFrequency', 'Hz10', 3),
  /** Every 12th step. */
  Hz5: item('StepFrequency', 'Hz5', 4),
  /** Every 60th step: once per simulated second. */
  Hz1: item('StepFrequency', 'Hz1', 5),
});

/** One of the {@link StepFrequency} items. */
export type StepFrequencyItem = (typeof StepFrequency)[keyof typeof StepFrequency];

/** Rates in Hz of the {@link StepFrequency} items, indexed by `Value`. */
const HZ: readonly number[] = Object.freeze([60, 30, 15, 10, 5, 1]);

/**
 * The rate in Hz of a `StepFrequency` item (or its name, `'Hz30'`), or `undefined` if
 * `frequency` is neither. An item's `Value` (0 to 5) is not taken: in JavaScript a bare number
 * reads as a rate, and `0` or `1` would silently mean 60 or 30 Hz.
 */
export function stepFrequencyHz(frequency: unknown): number | undefined {
  const items: readonly EnumItem[] = Object.values(StepFrequency);
  for (const it of items) {
    if (frequency === it || frequency === it.Name) return HZ[it.Value];
  }
  return undefined;
}

/**
 * Roblox's `Enum` global, holding the timing enums:
 * `RunService.BindToRenderStep('camera', Enum.RenderPriority.Camera.Value, follow)`.
 */
export const Enum = Object.freeze({ RenderPriority, StepFrequency });
