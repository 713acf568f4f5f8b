/**
 * Issue #29, item 7: recordings cross trust boundaries, so text that cannot be a recording is
 * refused before `JSON.parse` builds anything from it — 20 MB of nested brackets took 23 s to
 * refuse, eight times a valid file of the same size. Each hostile shape here is 20 MB; the
 * error says which documented maximum it passed and where. How long refusing takes, beside
 * loading a valid recording of the same size, is measured by `npm run bench -- recordings`.
 */
import { FixedLoop } from '@fixedtick/core';
import {
  INPUT_MAX_KEYS,
  InputLatch,
  InputRecording,
  InputRecordingError,
  RECORDING_MAX_DEPTH,
  RECORDING_MAX_EVENTS,
  RECORDING_MAX_TEXT_LENGTH,
} from '@fixedtick/core/input';
import { describe, expect, it } from 'vitest';

const MB = 1024 * 1024;
const SIZE = 20 * MB;

/** The error `fromJSON(text)` throws. */
function refusal(text: string): InputRecordingError {
  try {
    InputRecording.fromJSON(text);
  } catch (error) {
    expect(error).toBeInstanceOf(InputRecordingError);
    return error as InputRecordingError;
  }
  throw new Error('expected fromJSON to refuse the text');
}

/** `unit` repeated to about `chars` characters. */
const repeated = (unit: string, chars: number): string =>
  unit.repeat(Math.floor(chars / unit.length));

const header =
  '{"format":"fixedtick-input","version":1,"fixedDelta":0.016666666666666666,"length":10,';

describe('hostile recordings are refused before they are parsed', () => {
  it('documents its maxima', () => {
    expect(RECORDING_MAX_TEXT_LENGTH).toBe(128 * MB);
    expect(RECORDING_MAX_DEPTH).toBe(3);
  });

  it.each([
    ['20 MB of nested brackets', `${repeated('[', SIZE / 2)}${repeated(']', SIZE / 2)}`, 3],
    ['20 MB of unclosed brackets', repeated('[', SIZE), 3],
    ['20 MB of nested objects', `${repeated('{"a":', SIZE / 2)}1${repeated('}', SIZE / 2)}`, 15],
    ['brackets nested inside the events', `${header}"events":[[[1]]]}`, header.length + 11],
  ])('%s: refused at the first level past RECORDING_MAX_DEPTH', (_name, text, at) => {
    const error = refusal(text);
    expect(error.message).toBe(
      `fixedtick: bad input recording: nested deeper than RECORDING_MAX_DEPTH (3 levels) at character ${at}`,
    );
    expect(error.path).toBe('');
  });

  it('20 MB of one object with a million members: refused at the 17th', () => {
    const members = Array.from({ length: SIZE / 12 }, (_, i) => `"k${i}":0`).join(',');
    const text = `{${members}}`;
    expect(refusal(text).message).toBe(
      `fixedtick: bad input recording: an object of more than 16 members at character ${text.indexOf('"k16"') - 1} (no recording has one)`,
    );
  });

  it('20 MB of one flat array: refused at item RECORDING_MAX_EVENTS + 1', () => {
    const text = `${header}"start":{"held":[],"pointer":[0,0]},"events":[${repeated('0,', SIZE)}0]}`;
    const firstComma = text.indexOf('0,', header.length + 40);
    expect(refusal(text).message).toBe(
      `fixedtick: bad input recording: an array of more than ${RECORDING_MAX_EVENTS} items at character ${firstComma + 1 + 2 * (RECORDING_MAX_EVENTS - 1)} (no recording has one)`,
    );
  });

  it('a held-key list longer than INPUT_MAX_KEYS, as text: refused before parsing', () => {
    const held = Array.from({ length: 2000 }, (_, i) => `"K${i}"`).join(',');
    const text = `${header}"start":{"held":[${held}],"pointer":[0,0]},"events":[]}`;
    expect(refusal(text).message).toMatch(
      new RegExp(`^fixedtick: bad input recording: an array of more than ${INPUT_MAX_KEYS} items`),
    );
  });

  it('20 MB of one string parses (it builds one string) and is refused as not an object', () => {
    const error = refusal(`"${'a'.repeat(SIZE)}"`);
    expect(error.message).toMatch(
      /^fixedtick: bad input recording: expected an object, got "a{64}"… \(20971520 characters\)$/,
    );
  });

  it('text longer than RECORDING_MAX_TEXT_LENGTH is refused by its length alone', () => {
    const text = ' '.repeat(RECORDING_MAX_TEXT_LENGTH + 1);
    expect(refusal(text).message).toBe(
      `fixedtick: bad input recording: longer than RECORDING_MAX_TEXT_LENGTH (134217728 characters): got 134217729`,
    );
  });

  it('brackets, commas and escaped quotes inside strings are text: such a recording loads', () => {
    const key = '[[[[{,\\"}]]]],,,,,,,,,,,,,,,,,,,,';
    const text = `${header}"start":{"held":["${key}"],"pointer":[0,0]},"events":[[1,"release","${key}"]]}`;
    const rec = InputRecording.fromJSON(text);
    expect(rec.eventCount).toBe(1);
    expect(rec.toJSON().start.held).toEqual(['[[[[{,"}]]]],,,,,,,,,,,,,,,,,,,,']);
  });

  it('a live recording stops before its JSON could pass RECORDING_MAX_TEXT_LENGTH, and loads', () => {
    const loop = new FixedLoop({ errorPolicy: 'throw' });
    const latch = new InputLatch(loop);
    // 512 keys of 256 characters: each event is about 290 characters of JSON, so the text cap
    // comes before RECORDING_MAX_EVENTS
    const keys = Array.from({ length: 512 }, (_, i) => `${i}`.padStart(256, 'k'));
    const rec = new InputRecording();
    rec.record(latch);
    for (let tick = 0; rec.recording && tick < 2000; tick++) {
      for (const key of keys) {
        if (tick % 2 === 0) latch.press(key);
        else latch.release(key);
      }
      loop.advance(1 / 60);
    }
    expect(rec.full).toBe(true);
    expect(rec.eventCount).toBeLessThan(RECORDING_MAX_EVENTS);
    expect(rec.eventCount % 512).toBe(0); // whole ticks only
    const json = JSON.stringify(rec);
    expect(json.length).toBeLessThanOrEqual(RECORDING_MAX_TEXT_LENGTH);
    expect(json.length).toBeGreaterThan(RECORDING_MAX_TEXT_LENGTH * 0.95);
    expect(InputRecording.fromJSON(json).eventCount).toBe(rec.eventCount);
  });
});
