// When a screen has settled, ignoring what never settles (issue 24, 2). A focused field's caret
// blinks about every 0.5 s, a clock ticks every second, a spinner turns: "changed, then still for
// 1 s" would never hold on such a page. The tracker records which thumbnail cells each frame
// changed and treats a block of 4×4 cells (32×32 px) as *restless* while it keeps changing at its
// own pace: it changed in at least two frames and has not been still for twice its longest gap
// since (blocks, not cells: a clock's next digit has strokes in cells the last one did not touch).
// Cells of restless blocks, and of the blocks next to them (a clock's tens digit beside its
// restless ones digit), are left out of every change, also of earlier ones (the caret's first
// blink is known as a blink only at its second). A small change whose blocks reach the restless
// ones through each other is theirs too: a clock's minute digit turns once a minute, left of its
// restless seconds, and would otherwise pass for the page's change. A change left with only a few cells (a small
// region: a digit, a spinner, an icon) counts as "the page changed" only once it has stayed alone
// for twice the settle time, so a clock's first tick cannot pass for the page's change before its
// second tick shows the period (polls a second apart can see one tick, then a still second).
import type { Thumbnail } from './frame-diff.js';

/** Frames kept per wait at most (a 5-s wait polls about 20 times). */
const MAX_EVENTS = 256;
/** Cells per side of a block whose restlessness is tracked. */
const BLOCK = 4;

interface ChangeEvent {
  at: number;
  cells: Uint32Array;
}

export interface SettleOptions {
  /** A cell changed when one channel moved by more than this (0–255); default 24. */
  cellThreshold?: number;
  /** A frame changed when at least this many cells did (restless ones left out); default 1. */
  minChangedCells?: number;
  /** False: every changed cell counts (no region is restless): the behaviour before issue 24. */
  ignoreRestless?: boolean;
  /** A change of at most this share of the cells is small; default 0.005 (at least 16 cells). */
  smallShare?: number;
}

/** The indices of the cells whose channels moved by more than `threshold`; null: other geometry. */
export function changedCells(a: Thumbnail, b: Thumbnail, threshold: number): Uint32Array | null {
  if (a.width !== b.width || a.height !== b.height) return null;
  if (a.sourceWidth !== b.sourceWidth || a.sourceHeight !== b.sourceHeight) return null;
  const found: number[] = [];
  const x = a.data;
  const y = b.data;
  for (let i = 0, cell = 0; i + 2 < x.length; i += 3, cell += 1) {
    const d = Math.max(
      Math.abs((x[i] as number) - (y[i] as number)),
      Math.abs((x[i + 1] as number) - (y[i + 1] as number)),
      Math.abs((x[i + 2] as number) - (y[i + 2] as number)),
    );
    if (d > threshold) found.push(cell);
  }
  return Uint32Array.from(found);
}

export class SettleTracker {
  readonly #threshold: number;
  readonly #smallShare: number;
  readonly #minChanged: number;
  readonly #ignoreRestless: boolean;
  #previous: Thumbnail | null = null;
  #events: ChangeEvent[] = [];
  /** Each cell's block. */
  #blockOf = new Uint32Array(0);
  #blocksPerRow = 0;
  /** Per block: frames it changed in, when last, and the longest gap between two of them. */
  #count = new Uint16Array(0);
  #last = new Float64Array(0);
  #gap = new Float64Array(0);

  constructor(options: SettleOptions = {}) {
    this.#threshold = options.cellThreshold ?? 24;
    this.#smallShare = options.smallShare ?? 0.005;
    this.#minChanged = options.minChangedCells ?? 1;
    this.#ignoreRestless = options.ignoreRestless ?? true;
  }

  /** Takes the next frame (its thumbnail, captured at `at`). */
  observe(thumbnail: Thumbnail, at: number): void {
    const previous = this.#previous;
    this.#previous = thumbnail;
    if (!previous) {
      this.#reset(thumbnail);
      return;
    }
    const cells = changedCells(previous, thumbnail, this.#threshold);
    if (cells === null) {
      // Another geometry (a resize): everything changed, and nothing known carries over.
      this.#reset(thumbnail);
      const all = Uint32Array.from({ length: thumbnail.width * thumbnail.height }, (_, i) => i);
      this.#events.push({ at, cells: all });
      return;
    }
    if (cells.length === 0) return;
    const blocks = new Set<number>();
    for (const cell of cells) blocks.add(this.#blockOf[cell] as number);
    for (const block of blocks) {
      const count = this.#count[block] as number;
      if (count > 0) {
        const gap = at - (this.#last[block] as number);
        if (gap > (this.#gap[block] as number)) this.#gap[block] = gap;
      }
      this.#count[block] = Math.min(count + 1, 0xffff);
      this.#last[block] = at;
    }
    this.#events.push({ at, cells });
    if (this.#events.length > MAX_EVENTS) this.#events.shift();
  }

  /**
   * The last change that is the page's (restless cells left out) at `now`, and whether one of
   * them counts as the page having changed (a small one only after `2 × settleMs` alone).
   */
  settled(now: number, settleMs: number): { lastChangeAt: number | null; changed: boolean } {
    const total = this.#blockOf.length;
    const restlessBlocks = this.#restlessAround(now);
    const small = Math.max(16, Math.floor(total * this.#smallShare));
    let lastChangeAt: number | null = null;
    let changed = false;
    for (const event of this.#events) {
      let kept = 0;
      for (const cell of event.cells)
        if (restlessBlocks[this.#blockOf[cell] as number] === 0) kept += 1;
      if (kept < this.#minChanged) continue;
      if (kept <= small && this.#joinsRestless(event.cells, restlessBlocks)) continue;
      lastChangeAt = event.at;
      if (kept > small || now - event.at >= 2 * settleMs) changed = true;
    }
    return { lastChangeAt, changed };
  }

  /**
   * 1 for each block that is restless or next to one (a clock's tens digit beside its restless
   * ones digit changes for the first time only every ten seconds).
   */
  #restlessAround(now: number): Uint8Array {
    const marks = new Uint8Array(this.#count.length);
    for (let block = 0; block < marks.length; block += 1) {
      if (!this.#restless(block, now)) continue;
      this.#around(block, (near) => {
        marks[near] = 1;
        return false;
      });
    }
    return marks;
  }

  /**
   * Whether the kept (unmarked) blocks of a small change all reach the marked ones through each
   * other: a clock's minute digit, left of its restless seconds, turns once a minute (and its
   * hour digits with it, a chain of blocks); alone it would pass for the page's change.
   */
  #joinsRestless(cells: Uint32Array, marks: Uint8Array): boolean {
    const pending = new Set<number>();
    for (const cell of cells) {
      const block = this.#blockOf[cell] as number;
      if (marks[block] === 0) pending.add(block);
    }
    const joined = new Set<number>();
    const reaches = (near: number) => marks[near] === 1 || joined.has(near);
    for (let grew = true; grew && pending.size > 0; ) {
      grew = false;
      for (const block of pending) {
        if (!this.#around(block, reaches)) continue;
        joined.add(block);
        pending.delete(block);
        grew = true;
      }
    }
    return pending.size === 0;
  }

  /** Calls `visit` on a block and its eight neighbours until one returns true; whether one did. */
  #around(block: number, visit: (near: number) => boolean): boolean {
    const perRow = this.#blocksPerRow;
    const row = Math.floor(block / perRow);
    const column = block % perRow;
    for (let r = row - 1; r <= row + 1; r += 1)
      for (let c = Math.max(0, column - 1); c <= Math.min(perRow - 1, column + 1); c += 1) {
        const near = r * perRow + c;
        if (r >= 0 && near < this.#count.length && visit(near)) return true;
      }
    return false;
  }

  /** Changed in two frames or more, and not still for twice its longest gap since. */
  #restless(block: number, now: number): boolean {
    if (!this.#ignoreRestless || (this.#count[block] as number) < 2) return false;
    return now - (this.#last[block] as number) < 2 * (this.#gap[block] as number);
  }

  #reset(thumbnail: Thumbnail): void {
    const { width, height } = thumbnail;
    const perRow = Math.ceil(width / BLOCK);
    this.#blocksPerRow = perRow;
    const blocks = perRow * Math.ceil(height / BLOCK);
    this.#blockOf = Uint32Array.from(
      { length: width * height },
      (_, cell) => Math.floor(cell / width / BLOCK) * perRow + Math.floor((cell % width) / BLOCK),
    );
    this.#events = [];
    this.#count = new Uint16Array(blocks);
    this.#last = new Float64Array(blocks);
    this.#gap = new Float64Array(blocks);
  }
}
