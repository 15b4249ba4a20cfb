// The cheap, page-level conditions (no model, no frames), and the cost order of all conditions.
import type { PageElement } from '@clawdie/kit/jail-api';
import { urlMatches } from './url-pattern.js';
import type { PageProbe, WaitCondition } from './wait-types.js';

/** Relative cost; conditions are checked in this order and a wait stops at the first unmet one. */
const COST: Record<WaitCondition['type'], number> = {
  url_matches: 1,
  text_contains: 2,
  text_absent: 2,
  element_present: 3,
  stable: 4,
  visual: 5,
};

/** The conditions sorted cheapest first (stable within equal costs). */
export function byCost(conditions: readonly WaitCondition[]): WaitCondition[] {
  return [...conditions].sort((a, b) => COST[a.type] - COST[b.type]);
}

export type CheapCondition = Extract<
  WaitCondition,
  { type: 'url_matches' | 'text_contains' | 'text_absent' | 'element_present' }
>;

export function isCheap(condition: WaitCondition): condition is CheapCondition {
  return COST[condition.type] <= 3;
}

/** `held`, or `unmet` with what is missing, or `unsupported` when the probe cannot tell. */
export type CheckResult =
  | { kind: 'held' }
  | { kind: 'unmet'; missing: string }
  | { kind: 'unsupported'; missing: string };

/** Memoises the probe reads of one evaluation round (several conditions share one read). */
export function probeReads(probe: PageProbe, signal?: AbortSignal) {
  let state: ReturnType<PageProbe['state']> | null = null;
  let text: Promise<string> | null = null;
  let elements: Promise<PageElement[]> | null = null;
  return {
    state: () => {
      state ??= probe.state(signal);
      return state;
    },
    text: probe.text
      ? () => {
          text ??= (probe.text as NonNullable<PageProbe['text']>)(signal);
          return text;
        }
      : null,
    elements: probe.elements
      ? () => {
          elements ??= (probe.elements as NonNullable<PageProbe['elements']>)(signal);
          return elements;
        }
      : null,
  };
}

/** Checks one cheap condition against the page. Rejects only when the probe rejects. */
export async function checkCheap(
  condition: CheapCondition,
  reads: ReturnType<typeof probeReads>,
): Promise<CheckResult> {
  switch (condition.type) {
    case 'url_matches': {
      const { url } = await reads.state();
      return urlMatches(url, condition.pattern)
        ? { kind: 'held' }
        : { kind: 'unmet', missing: `the URL is ${url}, not ${condition.pattern}` };
    }
    case 'text_contains':
    case 'text_absent': {
      if (!reads.text) return { kind: 'unsupported', missing: 'this page probe cannot read text' };
      const present = normalise(await reads.text()).includes(normalise(condition.text));
      if (present === (condition.type === 'text_contains')) return { kind: 'held' };
      return {
        kind: 'unmet',
        missing: present
          ? `the page still shows "${condition.text}"`
          : `the page does not show "${condition.text}"`,
      };
    }
    case 'element_present': {
      if (!reads.elements) {
        return { kind: 'unsupported', missing: 'this page probe cannot list elements' };
      }
      const found = (await reads.elements()).some((element) => elementMatches(element, condition));
      return found
        ? { kind: 'held' }
        : { kind: 'unmet', missing: `no visible element matches ${describeElement(condition)}` };
    }
  }
}

function elementMatches(
  element: PageElement,
  wanted: Extract<WaitCondition, { type: 'element_present' }>,
): boolean {
  const has = (value: string | null, part: string | undefined) =>
    part === undefined || normalise(value ?? '').includes(normalise(part));
  return (
    has(element.text, wanted.text) &&
    has(element.name, wanted.name) &&
    has(element.role, wanted.role) &&
    (wanted.tag === undefined || element.tag === wanted.tag.toLowerCase())
  );
}

function describeElement(wanted: Extract<WaitCondition, { type: 'element_present' }>): string {
  const { type: _type, ...fields } = wanted;
  return JSON.stringify(fields);
}

function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

export { urlMatches };

/** Human form of a condition, for outcomes and notes. */
export function describeCondition(condition: WaitCondition): string {
  switch (condition.type) {
    case 'text_contains':
      return `text "${condition.text}" shown`;
    case 'text_absent':
      return `text "${condition.text}" gone`;
    case 'url_matches':
      return `URL matches ${condition.pattern}`;
    case 'element_present':
      return `element ${describeElement(condition)} present`;
    case 'stable':
      return `screen unchanged for ${condition.ms} ms`;
    case 'visual':
      return condition.description;
  }
}
