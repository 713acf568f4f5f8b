/**
 * Number of past frames whose step counts the jitter fix keeps consistent (Godot's
 * `CONTROL_STEPS`): what 144 Hz displays need with 60 Hz physics (12 frames run exactly 5 steps).
 */
export const JITTER_FIX_HISTORY = 12;

/** Running step totals the history needs: the newest and the twelve before it. */
const TOTALS = JITTER_FIX_HISTORY + 1;
/** One bit per frame of the history (bit i: the frame i frames before the newest). */
const ALL_FRAMES = (1 << JITTER_FIX_HISTORY) - 1;

// Slots of StepHistory's integers.
/** Ring position of the newest total. */
const NEWEST = 0;
/** 1 while the typical counts are written out as numbers, 0 while BELOW holds them. */
const TYPICAL_VALID = 1;
/** Bit i set: `typical[i] = accumulated[i] - 1` (else equal). */
const BELOW = 2;
/** Bit i set: the frame i frames before the newest ran at least 1 step. */
const AT_LEAST_1 = 3;
/** … at least 2 steps. */
const AT_LEAST_2 = 4;
/** … at least 3 steps. */
const AT_LEAST_3 = 5;

/**
 * The step history of Godot's `MainTimerSync`: `accumulated_physics_steps[i]` (steps over the
 * last i+1 frames) and `typical_physics_steps[i]` (its typical value, it or one less), kept for
 * the jitter fix, and kept up to date every frame even while the fix is 0, as Godot keeps it.
 *
 * `accumulated[i]` is a difference of running step totals, kept in a ring (each total twice, at
 * k and k + 13, so reads need no modulo): a frame writes one total instead of shifting twelve
 * sums. Doubles hold any count exactly.
 *
 * While the fix is 0 a frame only {@link record}s its steps, in O(1): after every frame Godot's
 * typical counts lie in `[accumulated[i] - 1, accumulated[i]]` (its retuning puts them there, and
 * a frame that needs no retuning keeps them there), so each is `accumulated[i]` less one bit
 * (`#below`). A frame of `s` steps sets the bit where the frame it replaces in that window ran
 * fewer than `s` steps, clears it where it ran more, and keeps it where equal: three masks of
 * "ran at least 1, 2, 3 steps" give that in a few bit operations for frames of up to 2 steps (a
 * loop for more). The typical counts are written out as numbers when the fix needs them.
 */
export class StepHistory {
  readonly #totals = new Float64Array(2 * TOTALS);
  /** Room for `#writeRepeats` to move the totals in. */
  readonly #scratch = new Float64Array(TOTALS);
  /** `typical_physics_steps`, valid while `TYPICAL_VALID` is set. */
  readonly #typical = new Float64Array(JITTER_FIX_HISTORY);
  /**
   * The small integers of the history, in one typed array so a frame's record touches two
   * objects (docs/performance.md, "The loop"): see NEWEST … AT_LEAST_3.
   */
  readonly #ints = new Int32Array(6);

  /**
   * Frames recorded but not yet applied, 2 bits each (newest lowest): {@link record} only packs
   * a frame of 0 to 3 steps in here, and the frames are applied in one pass when 12 have
   * gathered or the history is read. That keeps the cost of a frame with the fix at 0 to a few
   * instructions.
   */
  #pending = 0;
  /** How many frames `#pending` holds. */
  #pendingCount = 0;
  /** The last full batch of 12 frames applied (-1: none, or other frames since). */
  #lastBatch = -1;
  /** How many full batches in a row were `#lastBatch`. */
  #repeats = 0;
  /** Whether `#lastBatch` left the bits as it found them. */
  #lastKeptBits = false;
  /** The steps `#lastBatch` ran. */
  #lastBatchSteps = 0;
  /**
   * Repeats of `#lastBatch` not yet written into the totals ring (see `#settle`): a repeat only
   * moves the totals, and k repeats move them in closed form, so a steady display's frames cost
   * a shift and an add each.
   */
  #unwrittenRepeats = 0;

  /** Output of {@link typicalBounds}: the fewest steps this frame may run to stay typical. */
  minTypical = 0;
  /** Output of {@link typicalBounds}: the most. */
  maxTypical = 0;

  constructor() {
    // Godot starts with typical_physics_steps[i] = accumulated_physics_steps[i] = i: the newest
    // frame "ran" 0 steps and each earlier one 1 (totals 0, 0, -1, …, -11 from the newest back)
    for (let i = 0; i < JITTER_FIX_HISTORY; i++) this.#typical[i] = i;
    for (let back = 0; back < TOTALS; back++) {
      const total = back === 0 ? 0 : 1 - back;
      this.#totals[TOTALS - 1 - back] = total;
      this.#totals[2 * TOTALS - 1 - back] = total;
    }
    this.#ints[NEWEST] = TOTALS - 1;
    this.#ints[TYPICAL_VALID] = 1;
    this.#ints[AT_LEAST_1] = ALL_FRAMES & ~1;
  }

  /** Godot's `accumulated_physics_steps[i]`: steps over the last i+1 frames. */
  accumulated(i: number): number {
    this.#settle();
    const newest = this.#ints[NEWEST] + TOTALS;
    return this.#totals[newest] - this.#totals[newest - i - 1];
  }

  /** Godot's `typical_physics_steps[i]`. */
  typical(i: number): number {
    this.#settle();
    this.#writeTypical();
    return this.#typical[i];
  }

  /**
   * Godot's bounds for this frame's steps to stay typical (`advance_core`), into
   * {@link minTypical} and {@link maxTypical}; true when the history no longer fits and the
   * typical counts must be retuned.
   */
  typicalBounds(): boolean {
    this.#settle();
    this.#writeTypical();
    const typical = this.#typical;
    const totals = this.#totals;
    const newest = this.#ints[NEWEST] + TOTALS;
    const total = totals[newest];
    let min = typical[0];
    let max = min + 1;
    let broken = false;
    for (let i = 0; i < JITTER_FIX_HISTORY - 1; i++) {
      const left = typical[i + 1] - (total - totals[newest - i - 1]);
      if (left > max || left + 1 < min) {
        broken = true;
        break;
      }
      if (left > min) min = left;
      if (left + 1 < max) max = left + 1;
    }
    this.minTypical = min;
    this.maxTypical = max;
    return broken;
  }

  /** Adds a frame of `steps` chosen by the jitter fix, retuning the typical counts if asked. */
  add(steps: number, retune: boolean): void {
    this.#settle();
    this.#lastBatch = -1;
    this.#repeats = 0;
    this.#writeTypical();
    this.#push(steps);
    if (!retune) return;
    const typical = this.#typical;
    const totals = this.#totals;
    const newest = this.#ints[NEWEST] + TOTALS;
    for (let i = 0; i < JITTER_FIX_HISTORY; i++) {
      const accumulated = totals[newest] - totals[newest - i - 1];
      if (typical[i] > accumulated) typical[i] = accumulated;
      else if (typical[i] < accumulated - 1) typical[i] = accumulated - 1;
    }
  }

  /**
   * Adds a frame that ran `steps` with the fix at 0, leaving the history exactly as Godot's
   * `advance_core` does then (see the class doc), in O(1) for frames of up to 2 steps.
   */
  record(steps: number): void {
    if (steps <= 3) {
      this.#pending = (this.#pending << 2) | steps;
      if (++this.#pendingCount === JITTER_FIX_HISTORY) this.#applyPending();
      return;
    }
    this.#settle();
    this.#apply(steps);
  }

  /** Applies everything recorded so far: the repeats not yet written, then the packed frames. */
  #settle(): void {
    if (this.#unwrittenRepeats !== 0) this.#writeRepeats();
    if (this.#pendingCount !== 0) this.#applyPending();
  }

  /**
   * Writes the repeats of the last batch into the totals ring. One repeat of a 12-frame batch of
   * S steps moves the ring's newest position back by one (12 ≡ −1 modulo 13) and makes each
   * total the one a position later plus S; k repeats: a position k later plus k × S.
   */
  #writeRepeats(): void {
    const k = this.#unwrittenRepeats;
    this.#unwrittenRepeats = 0;
    const totals = this.#totals;
    const add = k * this.#lastBatchSteps;
    const shift = k % TOTALS;
    const moved = this.#scratch;
    for (let p = 0; p < TOTALS; p++) moved[p] = totals[(p + shift) % TOTALS] + add;
    for (let p = 0; p < TOTALS; p++) {
      totals[p] = moved[p];
      totals[p + TOTALS] = moved[p];
    }
    const ints = this.#ints;
    ints[NEWEST] = (ints[NEWEST] - shift + TOTALS) % TOTALS;
  }

  /** Applies the packed frames (0 to 3 steps each), oldest first, in one pass over locals. */
  #applyPending(): void {
    const pending = this.#pending;
    const count = this.#pendingCount;
    this.#pending = 0;
    this.#pendingCount = 0;
    const repeat =
      count === JITTER_FIX_HISTORY &&
      pending === this.#lastBatch &&
      this.#repeats >= 2 &&
      this.#lastKeptBits;
    if (repeat) {
      // the state is a fixed point of this batch: only the totals move (written when read)
      this.#unwrittenRepeats++;
      this.#repeats++;
      return;
    }
    if (this.#unwrittenRepeats !== 0) this.#writeRepeats();
    const ints = this.#ints;
    if (ints[TYPICAL_VALID] === 1) this.#readBelow();
    const totals = this.#totals;
    let below = ints[BELOW];
    // A display whose steps per frame repeat every 12 frames (or 1, 2, 3, 4, 6) sends the same
    // batch again and again. Once a batch has left the whole state as it found it (the bits
    // unchanged, and the masks, which the batch before it already set to this batch's), the
    // same batch on the same state changes nothing but the totals.
    const full = count === JITTER_FIX_HISTORY;
    const before = below;
    const startTotal = totals[ints[NEWEST]];
    let atLeast1 = ints[AT_LEAST_1];
    let atLeast2 = ints[AT_LEAST_2];
    let atLeast3 = ints[AT_LEAST_3];
    let newest = ints[NEWEST];
    let total = totals[newest];
    for (let k = count - 1; k >= 0; k--) {
      const steps = (pending >> (2 * k)) & 3;
      // the bit update of the class doc, for 0 to 3 steps, against the window before it
      if (steps === 0) below &= ~atLeast1;
      else if (steps === 1) below = (below | (atLeast1 ^ ALL_FRAMES)) & ~atLeast2;
      else if (steps === 2) below = (below | (atLeast2 ^ ALL_FRAMES)) & ~atLeast3;
      else below = this.#belowAfter(below, 3, newest, total);
      atLeast1 = ((atLeast1 << 1) | (steps >= 1 ? 1 : 0)) & ALL_FRAMES;
      atLeast2 = ((atLeast2 << 1) | (steps >= 2 ? 1 : 0)) & ALL_FRAMES;
      atLeast3 = ((atLeast3 << 1) | (steps >= 3 ? 1 : 0)) & ALL_FRAMES;
      total += steps;
      newest = newest + 1 === TOTALS ? 0 : newest + 1;
      totals[newest] = total;
      totals[newest + TOTALS] = total;
    }

    if (!full) {
      this.#lastBatch = -1;
      this.#repeats = 0;
    } else if (pending === this.#lastBatch) {
      this.#repeats++;
    } else {
      this.#lastBatch = pending;
      this.#lastBatchSteps = total - startTotal;
      this.#repeats = 1;
    }
    this.#lastKeptBits = below === before;
    ints[BELOW] = below;
    ints[AT_LEAST_1] = atLeast1;
    ints[AT_LEAST_2] = atLeast2;
    ints[AT_LEAST_3] = atLeast3;
    ints[NEWEST] = newest;
  }

  /**
   * The bits after a frame of `steps` when the masks do not tell (3 or more steps): compare with
   * each frame of the window. `newest` and `total` are the ring position and total before it.
   */
  #belowAfter(below: number, steps: number, newest: number, total: number): number {
    const totals = this.#totals;
    let bits = below;
    let later = total;
    for (let i = 0; i < JITTER_FIX_HISTORY; i++) {
      const at = newest + TOTALS - i - 1;
      const ran = later - totals[at];
      later = totals[at];
      if (ran < steps) bits |= 1 << i;
      else if (ran > steps) bits &= ~(1 << i);
    }
    return bits;
  }

  /** Applies one frame of 4 or more steps recorded with the fix at 0 (see the class doc). */
  #apply(steps: number): void {
    this.#lastBatch = -1;
    this.#repeats = 0;
    const ints = this.#ints;
    if (ints[TYPICAL_VALID] === 1) this.#readBelow();
    const newest = ints[NEWEST];
    ints[BELOW] = this.#belowAfter(ints[BELOW], steps, newest, this.#totals[newest]);
    this.#push(steps);
  }

  /** Shifts a frame of `steps` into the totals and the masks. */
  #push(steps: number): void {
    const ints = this.#ints;
    const totals = this.#totals;
    const previous = ints[NEWEST];
    const total = totals[previous] + steps;
    const newest = previous + 1 === TOTALS ? 0 : previous + 1;
    ints[NEWEST] = newest;
    totals[newest] = total;
    totals[newest + TOTALS] = total;
    ints[AT_LEAST_1] = ((ints[AT_LEAST_1] << 1) | (steps >= 1 ? 1 : 0)) & ALL_FRAMES;
    ints[AT_LEAST_2] = ((ints[AT_LEAST_2] << 1) | (steps >= 2 ? 1 : 0)) & ALL_FRAMES;
    ints[AT_LEAST_3] = ((ints[AT_LEAST_3] << 1) | (steps >= 3 ? 1 : 0)) & ALL_FRAMES;
  }

  /** Turns the typical counts into the bits (`typical[i]` is `accumulated[i]` or one less). */
  #readBelow(): void {
    let below = 0;
    const totals = this.#totals;
    const newest = this.#ints[NEWEST] + TOTALS;
    for (let i = 0; i < JITTER_FIX_HISTORY; i++) {
      if (this.#typical[i] < totals[newest] - totals[newest - i - 1]) below |= 1 << i;
    }
    this.#ints[BELOW] = below;
    this.#ints[TYPICAL_VALID] = 0;
  }

  /** Turns the bits back into typical counts, when the jitter fix needs them. */
  #writeTypical(): void {
    if (this.#ints[TYPICAL_VALID] === 1) return;
    const below = this.#ints[BELOW];
    const totals = this.#totals;
    const newest = this.#ints[NEWEST] + TOTALS;
    for (let i = 0; i < JITTER_FIX_HISTORY; i++) {
      this.#typical[i] = totals[newest] - totals[newest - i - 1] - ((below >> i) & 1);
    }
    this.#ints[TYPICAL_VALID] = 1;
  }
}
