/**
 * `@fixedtick/core/input`: input for fixed steps — the {@link InputLatch} that makes a press seen
 * in exactly one tick whatever the frame rate, its DOM bindings, and {@link InputRecording}s that
 * replay a run bit for bit. A separate entry so a game that reads input its own way never
 * ships it; `@fixedtick/three` and `@fixedtick/babylon` re-export it.
 * @packageDocumentation
 */
export {
  type BindKeyboardOptions,
  type BindPointerOptions,
  type KeyboardTarget,
  POINTER_BUTTONS,
  type PointerTarget,
} from '../input/dom-bindings.ts';
export {
  type InputEventKind,
  InputLatch,
  type InputLatchOptions,
  type InputListener,
  type InputTiming,
} from '../input/input-latch.ts';
export {
  INPUT_MAX_KEY_LENGTH,
  INPUT_MAX_KEYS,
  RECORDING_MAX_DEPTH,
  RECORDING_MAX_EVENTS,
  RECORDING_MAX_TEXT_LENGTH,
} from '../input/input-limits.ts';
export { InputRecording, type ReplayOptions } from '../input/input-recording.ts';
export { InputRecordingError } from '../input/recording-error.ts';
export {
  type InputRecordingJSON,
  RECORDING_FORMAT,
  RECORDING_VERSION,
  type RecordedCoordinate,
  type RecordedEventJSON,
} from '../input/recording-format.ts';
