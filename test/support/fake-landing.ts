// The fake operator's page model for `landing` (issue 20): pages with regions (a box, the frames
// it sits in, the element, where activating it goes), the focus, a history and a document
// identity that changes on every navigation or popup — with the jail-service's `expect`
// (LANDING_CHANGED) and `secret` (FOCUS_MISMATCH) checks, so the controlplane is tested against
// the same behaviour the real jail-service promises (kit/src/jail-api/landing.ts).
import {
  type Action,
  actionContracts,
  actionPoints,
  type ErrorInfo,
  type FieldKind,
  type LandingDestination,
  type LandingResponse,
  type LandingTarget,
  type Point,
} from '@clawdie/kit/jail-api';

/** Something on a page: a box, the frames it is nested in, what it is and where it leads. */
export interface FakeRegion {
  box: { x: number; y: number; width: number; height: number };
  /** URLs of the frames it sits in below the top document, outermost first. */
  frames?: string[];
  /** Default `button` / field `other`. Fields (password, text, …) take the focus on click. */
  element?: {
    tag?: string;
    input_type?: string | null;
    autocomplete?: string | null;
    field?: FieldKind;
  };
  /** A link or a form: clicking it (or Enter in a focused field of it) goes there. */
  destination?: { kind?: 'link' | 'form'; url: string; method?: string; new_window?: boolean };
}

export interface FakePage {
  regions?: FakeRegion[];
}

const focusable: readonly FieldKind[] = ['password', 'text', 'textarea', 'editable'];

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'null';
  }
}

function inside(point: Point, region: FakeRegion): boolean {
  const { x, y, width, height } = region.box;
  return point.x >= x && point.x < x + width && point.y >= y && point.y < y + height;
}

/** The page model: one active page (URL + document), its focus and its history. */
export function createFakePages(pages: Record<string, FakePage> = {}, startUrl = 'about:blank') {
  let url = startUrl;
  let documents = 1;
  let documentId = 'doc-1';
  let focus: FakeRegion | null = null;
  const history: string[] = [];

  const regionsOf = (page: string) => pages[page]?.regions ?? [];
  const regionAt = (point: Point) =>
    regionsOf(url).findLast((region) => inside(point, region)) ?? null;

  function targetOf(region: FakeRegion | null): LandingTarget {
    const frames = [url, ...(region?.frames ?? [])].map((frame) => ({
      url: frame,
      origin: originOf(frame),
    }));
    const element = region?.element;
    const destination: LandingDestination | null = region?.destination
      ? {
          kind: region.destination.kind ?? 'link',
          url: region.destination.url,
          method: region.destination.method ?? 'GET',
          new_window: region.destination.new_window ?? false,
        }
      : null;
    return {
      frames,
      element: {
        tag: element?.tag ?? (region ? 'button' : 'body'),
        input_type: element?.input_type ?? null,
        autocomplete: element?.autocomplete ?? null,
        field: element?.field ?? 'other',
      },
      destination,
    };
  }

  /** Lands where the action's contract says (`lands`): under its last point, at the focus, … */
  function landing(action: Action): LandingResponse {
    const base = { url, document_id: documentId, source: null };
    const points = actionPoints(action);
    const last = points.at(-1);
    switch (actionContracts[action.type].lands) {
      case 'point': {
        if (!last) return { ...base, target: null };
        const source = points.length > 1 && points[0] ? targetOf(regionAt(points[0])) : null;
        return { ...base, target: targetOf(regionAt(last)), source };
      }
      case 'focus':
        return { ...base, target: targetOf(focus) };
      case 'history': {
        const previous = history.at(-1);
        if (!previous) return { ...base, target: null };
        return {
          ...base,
          target: {
            frames: [{ url: previous, origin: originOf(previous) }],
            element: null,
            destination: { kind: 'history', url: previous, method: 'GET', new_window: false },
          },
        };
      }
      case 'nowhere':
        return { ...base, target: null };
    }
  }

  function go(next: string, keepHistory = true): void {
    if (keepHistory) history.push(url);
    url = next;
    documents += 1;
    documentId = `doc-${documents}`;
    focus = null;
  }

  /** What running `action` does to the page; true when it navigated (a new document). */
  function apply(action: Action): boolean {
    if (action.type === 'navigate' || action.type === 'open_url') {
      go(action.url);
      return true;
    }
    if (action.type === 'navigate_back') {
      const previous = history.pop();
      if (previous) go(previous, false);
      return previous !== undefined;
    }
    if (action.type === 'click' || action.type === 'left_double') {
      const region = regionAt(action);
      if (region && focusable.includes(region.element?.field ?? 'other')) focus = region;
      else if (region?.destination) {
        go(region.destination.url);
        return true;
      } else focus = null;
      return false;
    }
    const submits =
      (action.type === 'press' && /^(enter|return)$/i.test(action.key)) ||
      (action.type === 'type' && action.text.endsWith('\n'));
    if (submits && focus?.destination) {
      go(focus.destination.url);
      return true;
    }
    return false;
  }

  /** The jail-service's checks before input: `expect`, then a secret's field rule; null = ok. */
  function check(action: Action): ErrorInfo | null {
    if ('expect' in action && action.expect) {
      const now = landing(action).target;
      const origins = now?.frames.map((frame) => frame.origin) ?? [];
      const same =
        action.expect.document_id === documentId &&
        JSON.stringify(action.expect.origins) === JSON.stringify(origins) &&
        action.expect.destination === (now?.destination?.url ?? null);
      if (!same) return { code: 'LANDING_CHANGED', message: 'the page moved on since /landing' };
    }
    if (action.type === 'type' && action.secret) {
      const target = targetOf(focus);
      const origin = target.frames.at(-1)?.origin ?? 'null';
      const element = target.element;
      const fieldOk =
        focus !== null &&
        element !== null &&
        (action.secret.fields.includes(element.field) ||
          (element.autocomplete ?? '')
            .split(/\s+/)
            .some((token) => action.secret?.autocomplete.includes(token)));
      if (!action.secret.origins.includes(origin) || !fieldOk)
        return { code: 'FOCUS_MISMATCH', message: `focus is in a ${element?.field} of ${origin}` };
    }
    return null;
  }

  return {
    landing,
    apply,
    check,
    url: () => url,
    documentId: () => documentId,
    /** The focused region's frame origin and field kind (what a `type` goes into). */
    focused: () => {
      const target = targetOf(focus);
      return { origin: target.frames.at(-1)?.origin ?? 'null', field: target.element?.field };
    },
    /** The page replaced behind the model's back (a script, a redirect, another tab). */
    replace: (next: string) => go(next),
    /** The focus taken away (a script moved it): the document and frames stay the same. */
    blur: () => {
      focus = null;
    },
  };
}
