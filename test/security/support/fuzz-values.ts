// Seeded generators of hostile request parts for the REST fuzz test: every draw comes from one
// PRNG, so a failing run reproduces from the seed it prints.

/** mulberry32: a small, fast, seeded 32-bit PRNG. */
export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)] as T;
  return { next, int, pick, chance: (p: number) => next() < p };
}
export type Random = ReturnType<typeof createRandom>;

const WEIRD_STRINGS = [
  '',
  ' ',
  '\u0000',
  '../../etc/passwd',
  '%2e%2e%2f',
  '\ud800',
  '😀'.repeat(50),
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '{{secret:bank_password}}',
  '/(a+)+$/',
  '/(/',
  '*'.repeat(500),
  'NaN',
  '-1',
  '1e309',
  '__proto__',
  'constructor',
];

export function randomString(random: Random): string {
  switch (random.int(0, 4)) {
    case 0:
      return random.pick(WEIRD_STRINGS);
    case 1:
      return 'x'.repeat(random.pick([1, 100, 10_001, 70_000]));
    case 2:
      return String.fromCharCode(
        ...Array.from({ length: random.int(1, 40) }, () => random.int(0, 0xffff)),
      );
    case 3:
      return `https://${random.pick(['example.org', '127.0.0.1', '[::1]', 'a'.repeat(300)])}/${random.int(0, 1e6)}`;
    default:
      return String(random.int(-1e9, 1e9));
  }
}

/** Any JSON value, sometimes deep, wide or of the wrong type. */
export function randomJson(random: Random, depth = 0): unknown {
  const kind = depth > 4 ? random.int(0, 4) : random.int(0, 7);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return random.chance(0.5);
    case 2:
      return random.pick([0, -1, 1.5, 2 ** 53, -(2 ** 63), 1e308, 501, 24 * 3600 + 1]);
    case 3:
    case 4:
      return randomString(random);
    case 5:
      return Array.from({ length: random.int(0, 5) }, () => randomJson(random, depth + 1));
    case 6:
      return Object.fromEntries(
        Array.from({ length: random.int(0, 5) }, () => [
          random.pick([
            'instruction',
            'type',
            'a',
            '__proto__',
            'properties',
            randomString(random),
          ]),
          randomJson(random, depth + 1),
        ]),
      );
    default:
      return deepJsonValue(random.pick([50, 1000, 3000]));
  }
}

/** A value nested `depth` levels deep, built without recursion. */
export function deepJsonValue(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

/** A deep JSON text built directly (JSON.stringify would overflow the stack). */
export function deepJsonText(depth: number): string {
  return `${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}`;
}

/** A task input: valid with mutations (wrong types, bad patterns, huge schemas, extra keys). */
export function mutatedTaskInput(random: Random): unknown {
  const input: Record<string, unknown> = { instruction: 'read the page' };
  const fields: [string, () => unknown][] = [
    ['instruction', () => randomJson(random)],
    ['start_url', () => randomString(random)],
    ['surface', () => random.pick(['browser', 'desktop', 'moon', 1])],
    ['domains', () => random.pick([[], ['*'], ['example.org'], [randomString(random)], 'x'])],
    ['credential_mode', () => random.pick(['none', 'supervisor_approved', 'all'])],
    ['record', () => randomJson(random)],
    ['max_steps', () => random.pick([0, 1, 500, 501, 1.5, '5', -1])],
    [
      'result_schema',
      () =>
        random.pick([
          { type: 'nope' },
          deepJsonValue(40),
          { pattern: '(a+)+$', type: 'string' },
          randomJson(random),
        ]),
    ],
    ['timeout_s', () => random.pick([0, 1, 86_401, 'x'])],
    [
      'host_labels',
      () =>
        random.pick([
          { 'OS!': 'x' },
          { os: '' },
          { __proto__: 'x' },
          Object.fromEntries(Array.from({ length: 9 }, (_, n) => [`k${n}`, 'v'])),
          randomJson(random),
        ]),
    ],
    [
      'success_criteria',
      () => ({
        url_matches: random.pick(['/(a+)+$/', '/(/', '/(a)\\1/', '*', randomString(random)]),
        text_contains: random.pick([['x'], 'x', [randomString(random)]]),
      }),
    ],
    [
      'logged_in_check',
      () =>
        random.pick([{}, { url_matches: '/(a+)+$/' }, { text_contains: '' }, randomJson(random)]),
    ],
    [
      'files',
      () =>
        random.pick([
          [{ name: 'a.txt', path: '/etc/passwd' }],
          [{ name: '../a', path: '/tmp/../etc/passwd' }],
          [{ name: 'a.txt', artifact_of_task: '../../etc' }],
          [{ name: 'a.txt', artifact_of_task: randomString(random) }],
          'x',
        ]),
    ],
    ['colour', () => 'red'],
  ];
  if (random.chance(0.3)) {
    // Valid apart from (at most) one field: these reach admission's deeper checks.
    const [name, make] = random.pick(fields);
    if (random.chance(0.7)) input[name] = make();
    return input;
  }
  for (const [name, make] of fields) if (random.chance(0.3)) input[name] = make();
  return input;
}
