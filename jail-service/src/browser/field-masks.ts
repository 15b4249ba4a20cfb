// Fields that hold a typed secret, and their boxes at capture time: each field is painted over in
// every screenshot and screencast frame of its tab until its document goes away. A box that cannot
// be computed (anything but the document being gone), a field that may move (an animation) or that
// moved between the reads before and after a capture fails closed: the whole image is masked.

import type { MaskCodec } from '@clawdie/kit/images';
import type { CDPSession } from 'puppeteer-core';
import { type Box, fieldBox } from './field-box.js';
import { type RemoteHandle, releaseGroup } from './frame-walk.js';
import type { Tab } from './page-tabs.js';

export type { Box } from './field-box.js';

/** Boxes to paint over, or `all` (fail closed: the whole image). */
export type MaskBoxes = Box[] | 'all';

interface MaskedField {
  id: number;
  tab: Tab;
  /** The field, then each frame element it is drawn in that its parent cannot read, innermost first. */
  levels: RemoteHandle[];
  group: string;
  sessions: Set<CDPSession>;
}

export interface FieldMasks {
  /** Masks `element` (in the frames behind `barriers`, top first) from now on. */
  add(
    tab: Tab,
    element: RemoteHandle,
    barriers: readonly RemoteHandle[],
    group: string,
    sessions: Set<CDPSession>,
  ): void;
  /** True when `tab` has a masked field. */
  has(tab: Tab): boolean;
  /** The fields' boxes now; drops fields whose document is gone. */
  boxes(tab: Tab): Promise<MaskBoxes>;
  /** Forgets every field (of one tab, or all). */
  clear(tab?: Tab): void;
}

/** The colour painted over a masked field (opaque black). */
export const MASK_RGB = [0, 0, 0] as const;

/** CDP errors that mean the object's document (its execution context or frame) is gone. */
const GONE =
  /Cannot find context|Could not find object|Session closed|Target closed|No target|detached|Inspected target navigated/i;

export function createFieldMasks(): FieldMasks {
  const fields: MaskedField[] = [];
  let ids = 0;
  const drop = (field: MaskedField) => {
    const index = fields.indexOf(field);
    if (index >= 0) fields.splice(index, 1);
    void releaseGroup(field.sessions, field.group);
  };
  return {
    add(tab, element, barriers, group, sessions) {
      fields.push({
        id: ++ids,
        tab,
        levels: [element, ...[...barriers].reverse()],
        group,
        sessions,
      });
    },
    has: (tab) => fields.some((field) => field.tab === tab),
    async boxes(tab) {
      const mine = fields.filter((field) => field.tab === tab);
      const found = await Promise.all(mine.map(boxOf));
      const boxes: Box[] = [];
      for (const [index, box] of found.entries()) {
        if (box === 'all') return 'all';
        if (box === 'gone') drop(mine[index] as MaskedField);
        else if (box.width > 0 && box.height > 0) boxes.push(box);
      }
      return boxes;
    },
    clear(tab) {
      for (const field of fields.filter((candidate) => !tab || candidate.tab === tab)) drop(field);
    },
  };
}

/** The field's box in the top-level viewport (field-box.ts), tagged with the field. */
async function boxOf(field: MaskedField): Promise<Box | 'all' | 'gone'> {
  try {
    const box = await fieldBox(field.levels);
    return box === 'all' ? box : { ...box, field: field.id };
  } catch (error) {
    return GONE.test(String(error)) ? 'gone' : 'all';
  }
}

/** CSS pixels a field may shift between two reads and still be covered by both boxes. */
const MOVE_TOLERANCE = 1;

/**
 * Both lists (two reads: before and after a capture, or two screencast frames), or `all` when
 * either is, or when a field is in both with boxes that differ: it moved, and where it was while
 * the image was taken is not known.
 */
export function unionBoxes(first: MaskBoxes, second: MaskBoxes): MaskBoxes {
  if (first === 'all' || second === 'all') return 'all';
  for (const box of second) {
    const earlier = first.find((candidate) => box.field && candidate.field === box.field);
    if (earlier && moved(earlier, box)) return 'all';
  }
  return [...first, ...second];
}

function moved(first: Box, second: Box): boolean {
  return (
    Math.abs(first.x - second.x) > MOVE_TOLERANCE ||
    Math.abs(first.y - second.y) > MOVE_TOLERANCE ||
    Math.abs(first.x + first.width - second.x - second.width) > MOVE_TOLERANCE ||
    Math.abs(first.y + first.height - second.y - second.height) > MOVE_TOLERANCE
  );
}

/**
 * Paints `boxes` (CSS pixels; `scale` image pixels per CSS pixel) opaque over the JPEG, widened
 * by 2 image pixels against rounding and JPEG blocks; `all` paints the whole image.
 */
export async function paintMasks(
  codec: MaskCodec,
  jpeg: Uint8Array,
  boxes: MaskBoxes,
  scale: number,
  quality: number,
): Promise<Uint8Array> {
  if (boxes !== 'all' && boxes.length === 0) return jpeg;
  const image = await codec.decode(jpeg);
  const { width, height, channels, data } = image;
  const rects =
    boxes === 'all'
      ? [{ x: 0, y: 0, width, height }]
      : boxes.map((box) => ({
          x: box.x * scale - 2,
          y: box.y * scale - 2,
          width: box.width * scale + 4,
          height: box.height * scale + 4,
        }));
  for (const rect of rects) {
    const x1 = Math.max(0, Math.floor(rect.x));
    const y1 = Math.max(0, Math.floor(rect.y));
    const x2 = Math.min(width, Math.ceil(rect.x + rect.width));
    const y2 = Math.min(height, Math.ceil(rect.y + rect.height));
    for (let y = y1; y < y2; y++) {
      for (let x = x1; x < x2; x++) {
        const at = (y * width + x) * channels;
        data[at] = MASK_RGB[0];
        data[at + 1] = MASK_RGB[1];
        data[at + 2] = MASK_RGB[2];
      }
    }
  }
  return codec.encodeJpeg(image, quality);
}
