// Keeps a typed secret inside the field it went into when that field is not a password field
// (docs/security.md, "Secrets"). Chromium copies, drags and — on back/forward — restores the value
// of any other field, where no mask covers it. So, before the model's input is sent, a copy or
// cut chord or a drag is refused while such a field is on the tab's page; and once the field's
// document is gone, the tab's session history is dropped, so no entry can bring the value back.
// Nothing runs in the page: a page script cannot undo either. Password fields are left alone
// (Chromium neither copies from them nor restores them) unless the page made them something else.
import { randomUUID } from 'node:crypto';
import { ActionFailedError } from '../errors.js';
import type { InputStep } from '../page-driver.js';
import { type RemoteHandle, releaseGroup, unwrap } from './frame-walk.js';
import type { Tab } from './page-tabs.js';

interface SecretField {
  tab: Tab;
  /** The field's handle in the walk's world, in an object group of its own (`group`). */
  handle: RemoteHandle;
  group: string | null;
  /** Seen as something other than a password input: its document's state may keep the value. */
  restorable: boolean;
}

export interface SecretFields {
  /**
   * Remembers the field a secret was just inserted into (`password`: it is a password input).
   * Never throws: without a handle of its own, it keeps the mask's.
   */
  add(tab: Tab, handle: RemoteHandle, password: boolean): Promise<void>;
  /**
   * Before `steps` go to `tab`: settles (below), then throws ActionFailedError when the steps
   * copy, cut or drag while a secret sits in a field of the tab that is not a password field, or
   * when that cannot be told (fail closed). Nothing is sent then.
   */
  beforeInput(tab: Tab, steps: readonly InputStep[]): Promise<void>;
  /** After `steps` went to `tab` (`sent`: all of them), for the keys still held. Never throws. */
  afterInput(tab: Tab, steps: readonly InputStep[], sent: boolean): void;
  /**
   * Drops the session history of every tab where a restorable field's document is gone, then
   * forgets that field. Throws ActionFailedError when the history cannot be dropped.
   */
  settle(): Promise<void>;
  /** Forgets every field (of one tab, or all) and the keys held there. */
  clear(tab?: Tab): void;
}

/** CDP errors that mean the object's document (its execution context or frame) is gone. */
const GONE =
  /Cannot find context|Could not find object|Session closed|Target closed|No target|detached|Inspected target navigated/i;

/** `this` = the field: where it is now (read in the walk's world, out of the page's reach). */
const PROBE_FUNCTION = `function () {
  if (!this.isConnected) return 'detached';
  return this.localName === 'input' && String(this.type).toLowerCase() === 'password' ? 'password' : 'exposed';
}`;

type Probe = 'gone' | 'detached' | 'password' | 'exposed' | 'unknown';

const REFUSED =
  'refused: a secret is in a field of this page that is not a password field, and copying, cutting or dragging could take it out of its field; submit or leave the page first';

export function createSecretFields(): SecretFields {
  let fields: SecretField[] = [];
  const held = new WeakMap<Tab, Set<string>>();
  const heldOf = (tab: Tab) => held.get(tab) ?? new Set<string>();

  const probeAll = async (list: readonly SecretField[]) =>
    Promise.all(
      list.map(async (field): Promise<Probe> => {
        const probed = await probe(field.handle);
        if (probed === 'exposed' || probed === 'unknown') field.restorable = true;
        return probed;
      }),
    );

  const settle = async () => {
    const list = [...fields];
    const probes = await probeAll(list);
    const emptied = new Set<Tab>();
    for (const [index, field] of list.entries())
      if (probes[index] === 'gone' && field.restorable) emptied.add(field.tab);
    for (const tab of emptied) {
      try {
        // Keeps only the current entry: the documents the field's value was saved with are gone.
        await tab.session.send('Page.resetNavigationHistory');
      } catch (error) {
        if (!GONE.test(String(error)))
          throw new ActionFailedError('refused: the history holding a secret could not be dropped');
      }
    }
    for (const [index, field] of list.entries()) if (probes[index] === 'gone') forget(field);
  };
  const forget = (field: SecretField) => {
    fields = fields.filter((candidate) => candidate !== field);
    if (field.group) void releaseGroup([field.handle.session], field.group);
  };

  return {
    async add(tab, handle, password) {
      const group = `clawdie-kept-${randomUUID()}`;
      const own = await handle.session
        .send('Runtime.callFunctionOn', {
          functionDeclaration: 'function () { return this; }',
          objectId: handle.objectId,
          objectGroup: group,
        })
        .then((reply) => reply.result.objectId)
        .catch(() => undefined);
      const kept = own ? { session: handle.session, objectId: own } : handle;
      fields.push({ tab, handle: kept, group: own ? group : null, restorable: !password });
    },
    async beforeInput(tab, steps) {
      await settle();
      const mine = fields.filter((field) => field.tab === tab);
      if (mine.length === 0 || !movesText(heldOf(tab), steps)) return;
      const probes = await probeAll(mine);
      if (probes.some((probed) => probed === 'exposed' || probed === 'unknown'))
        throw new ActionFailedError(REFUSED);
    },
    afterInput(tab, steps, sent) {
      held.set(tab, heldAfter(heldOf(tab), steps, sent));
    },
    settle,
    clear(tab) {
      for (const field of fields.filter((candidate) => !tab || candidate.tab === tab))
        forget(field);
      if (tab) held.delete(tab);
    },
  };
}

async function probe(handle: RemoteHandle): Promise<Probe> {
  try {
    const reply = await handle.session.send('Runtime.callFunctionOn', {
      functionDeclaration: PROBE_FUNCTION,
      objectId: handle.objectId,
      returnByValue: true,
    });
    const value = unwrap<string>(reply, true);
    return value === 'detached' || value === 'password' ? value : 'exposed';
  } catch (error) {
    return GONE.test(String(error)) ? 'gone' : 'unknown';
  }
}

/**
 * Whether `steps`, with `held` keys down before them, copy or cut (Chromium's Linux editing keys:
 * Ctrl+C / Ctrl+X / Ctrl+Insert / Shift+Delete, the Copy and Cut keys; Meta counted as Ctrl), open
 * a context menu (right button, the menu key, Shift+F10) or drag (a move with a button down).
 */
export function movesText(held: ReadonlySet<string>, steps: readonly InputStep[]): boolean {
  const keys = new Set(held);
  let button = false;
  for (const step of steps) {
    if (step.kind === 'mouse-down') {
      // The context menu (a headed, attached browser draws one, with Copy and Cut).
      if (step.button === 'right') return true;
      button = true;
    } else if (step.kind === 'mouse-up') button = false;
    else if (step.kind === 'mouse-move' && button) return true;
    else if (step.kind === 'key-up') keys.delete(step.key);
    else if (step.kind === 'key-down') {
      if (isClipboardChord(keys, step.key)) return true;
      keys.add(step.key);
    } else if (step.kind === 'type-text') {
      if ([...step.text].some((character) => isClipboardChord(keys, character))) return true;
    }
  }
  return false;
}

function isClipboardChord(held: ReadonlySet<string>, key: string): boolean {
  const name = /^Key[A-Z]$/.test(key) ? key.slice(3).toLowerCase() : key.toLowerCase();
  if (name === 'copy' || name === 'cut' || name === 'contextmenu') return true;
  if (held.has('Shift') && name === 'f10') return true;
  const control = held.has('Control') || held.has('Meta');
  if (control && (name === 'c' || name === 'x' || name === 'insert')) return true;
  return held.has('Shift') && name === 'delete';
}

/** Keys down after `steps`; when not all were sent, every key pressed counts as still down. */
function heldAfter(held: ReadonlySet<string>, steps: readonly InputStep[], sent: boolean) {
  const keys = new Set(held);
  for (const step of steps) {
    if (step.kind === 'key-down') keys.add(step.key);
    else if (step.kind === 'key-up' && sent) keys.delete(step.key);
  }
  return keys;
}
