/**
 * The server's input queue (docs/multiplayer.md, "The tick contract"): each command is
 * delivered to the tick it is stamped for; late ones to the next tick that runs, counted;
 * duplicates dropped; commands too far ahead refused; malformed ones refused without a throw.
 */
import { type InputCommand, TickInputQueue, TickInputState } from '@fixedtick/core/net';
import { describe, expect, it } from 'vitest';

/** Runs ticks `from..to` (inclusive) and returns what each tick saw of `keys`. */
function run(
  queue: TickInputQueue,
  input: TickInputState,
  from: number,
  to: number,
  keys: string[],
) {
  const seen: string[] = [];
  for (let tick = from; tick <= to; tick++) {
    queue.deliver(tick, input);
    const parts = keys.flatMap((k) => [
      input.pressed(k) ? `+${k}` : '',
      input.held(k) ? `=${k}` : '',
      input.released(k) ? `-${k}` : '',
    ]);
    seen.push(`${tick}:${parts.filter(Boolean).join(' ')}`);
  }
  return seen;
}

const press = (tick: number, key = 'Space'): InputCommand => ({ tick, events: [['press', key]] });
const release = (tick: number, key = 'Space'): InputCommand => ({
  tick,
  events: [['release', key]],
});

describe('TickInputQueue', () => {
  it('delivers an early command in the tick it is stamped for, not before', () => {
    const queue = new TickInputQueue();
    const input = new TickInputState();
    expect(queue.receive(press(5), 2)).toBe('queued');
    expect(queue.receive(release(7), 2)).toBe('queued');
    expect(queue.pending).toBe(2);
    expect(run(queue, input, 2, 8, ['Space'])).toEqual([
      '2:',
      '3:',
      '4:',
      '5:+Space =Space',
      '6:=Space',
      '7:-Space',
      '8:',
    ]);
    expect(queue.stats).toMatchObject({ received: 2, late: 0, duplicates: 0, early: 0 });
  });

  it('delivers a late command in the next tick that runs, counted', () => {
    const queue = new TickInputQueue();
    const input = new TickInputState();
    run(queue, input, 0, 9, []);
    // Stamped for tick 4, which ran already: tick 10 is the next to run.
    expect(queue.receive(press(4), 10)).toBe('late');
    expect(run(queue, input, 10, 11, ['Space'])).toEqual(['10:+Space =Space', '11:=Space']);
    expect(queue.stats.late).toBe(1);
  });

  it("keeps a late event ahead of the next tick's own, and a key changes once per tick", () => {
    const queue = new TickInputQueue();
    const input = new TickInputState();
    run(queue, input, 0, 9, []);
    expect(queue.receive(press(9), 10)).toBe('late');
    expect(queue.receive(release(10), 10)).toBe('queued');
    // The late press takes tick 10; the release waits for tick 11 (one change per key per tick).
    expect(run(queue, input, 10, 12, ['Space'])).toEqual(['10:+Space =Space', '11:-Space', '12:']);
    expect(queue.stats).toMatchObject({ late: 1, deferred: 1 });
  });

  it('drops a second command for a tick already received, whether or not it ran', () => {
    const queue = new TickInputQueue();
    const input = new TickInputState();
    expect(queue.receive(press(3), 0)).toBe('queued');
    expect(queue.receive(press(3), 0)).toBe('duplicate');
    expect(queue.receive({ tick: 3, events: [] }, 1)).toBe('duplicate');
    run(queue, input, 0, 5, []);
    expect(queue.receive(press(3), 6)).toBe('duplicate');
    expect(queue.stats).toMatchObject({ received: 1, duplicates: 3, late: 0 });
    expect(queue.newestTick).toBe(3);
  });

  it('refuses a command more than maxLeadTicks ahead of the next tick', () => {
    const queue = new TickInputQueue({ maxLeadTicks: 10 });
    expect(queue.receive(press(20), 10)).toBe('queued');
    expect(queue.receive(press(21), 10)).toBe('early');
    expect(queue.stats.early).toBe(1);
    expect(queue.pending).toBe(1);
  });

  it.each([
    ['null', null],
    ['a number', 3],
    ['no events', { tick: 1 }],
    ['a negative tick', { tick: -1, events: [] }],
    ['a fractional tick', { tick: 1.5, events: [] }],
    ['an unknown kind', { tick: 1, events: [['jump', 'Space']] }],
    ['an empty key', { tick: 1, events: [['press', '']] }],
    ['a key of 257 characters', { tick: 1, events: [['press', 'k'.repeat(257)]] }],
    ['a non-finite pointer', { tick: 1, events: [['move', Number.NaN, 0]] }],
    ['too many events', { tick: 1, events: Array.from({ length: 65 }, () => ['move', 0, 0]) }],
  ])('refuses %s as invalid, without a throw', (_name, command) => {
    const queue = new TickInputQueue();
    expect(queue.receive(command, 0)).toBe('invalid');
    expect(queue.stats.invalid).toBe(1);
    expect(queue.stats.received).toBe(0);
  });

  it('delivers the commands of ticks that were skipped in the next delivered tick, as late', () => {
    const queue = new TickInputQueue();
    const input = new TickInputState();
    queue.receive(press(3, 'KeyA'), 0);
    queue.receive(press(4, 'KeyB'), 0);
    queue.deliver(0, input);
    queue.deliver(5, input); // ticks 1-4 never delivered (a server that dropped them)
    expect([input.pressed('KeyA'), input.pressed('KeyB')]).toEqual([true, true]);
    expect(queue.stats.late).toBe(2);
  });

  it('moves the pointer to the last move of the tick', () => {
    const queue = new TickInputQueue();
    const input = new TickInputState();
    queue.receive(
      {
        tick: 0,
        events: [
          ['move', 1, 2],
          ['move', 3, -0],
        ],
      },
      0,
    );
    queue.deliver(0, input);
    expect([input.pointerX, input.pointerY]).toEqual([3, -0]);
    expect(Object.is(input.pointerY, -0)).toBe(true);
  });

  it('names the option in a RangeError', () => {
    expect(() => new TickInputQueue({ maxLeadTicks: 0 })).toThrow(
      /option "maxLeadTicks" must be a whole number ≥ 1, got 0/,
    );
  });
});
