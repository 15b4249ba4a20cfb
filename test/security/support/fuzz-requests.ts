// One seeded hostile request for an operation of the REST fuzz test: path parameters, query,
// auth, content type and body are each drawn from well-formed and malformed choices.
import {
  deepJsonText,
  mutatedTaskInput,
  type Random,
  randomJson,
  randomString,
} from './fuzz-values.js';

export interface Operation {
  method: string;
  path: string;
}

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  /** What was sent, short enough to print in a failure. */
  summary: string;
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-16',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'text/plain',
  'application/octet-stream',
];

export function fuzzRequest(
  random: Random,
  operation: Operation,
  context: { tokens: Record<'admin' | 'reader' | 'garbage', string>; taskIds: string[] },
): FuzzRequest {
  const method = random.chance(0.8) ? operation.method : random.pick(METHODS);
  const path = fillPath(random, operation.path, context.taskIds) + query(random);
  const headers: Record<string, string> = {};
  const auth = random.pick([
    'none',
    'admin',
    'admin',
    'admin',
    'reader',
    'garbage',
    'basic',
  ] as const);
  if (auth === 'basic') headers.authorization = 'Basic YWRtaW46YWRtaW4=';
  else if (auth !== 'none') headers.authorization = `Bearer ${context.tokens[auth]}`;
  if (random.chance(0.1)) headers['last-event-id'] = headerValue(randomString(random), 50);
  if (operation.path === '/mcp' && random.chance(0.5)) {
    headers['mcp-session-id'] = headerValue(randomString(random), 100);
  }
  if (operation.path === '/mcp') headers.accept = 'application/json, text/event-stream';
  let body: FuzzRequest['body'];
  let bodyKind = 'none';
  if (method !== 'GET' && method !== 'HEAD' && random.chance(0.9)) {
    [bodyKind, body] = makeBody(random, operation);
    headers['content-type'] = random.chance(0.8)
      ? operation.path === '/dashboard/login'
        ? 'application/x-www-form-urlencoded'
        : 'application/json'
      : random.pick(CONTENT_TYPES);
  }
  const size = body === undefined ? 0 : typeof body === 'string' ? body.length : body.byteLength;
  return {
    method,
    path,
    headers,
    body,
    summary: `${method} ${path.slice(0, 120)} auth=${auth} body=${bodyKind}(${size})`,
  };
}

/** A header value fetch accepts: visible ASCII only (others become `?`), never empty. */
function headerValue(text: string, max: number): string {
  return text.slice(0, max).replace(/[^\x21-\x7e]/g, '?') || 'x';
}

/** encodeURIComponent that also takes lone surrogates (as U+FFFD). */
function encode(text: string): string {
  return encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '\ufffd'));
}

function fillPath(random: Random, template: string, taskIds: string[]): string {
  return template
    .replace('{id}', () => {
      const known = taskIds.length > 0 && random.chance(0.4);
      const id = known ? random.pick(taskIds) : randomString(random).slice(0, 3000);
      return encode(id || 'x');
    })
    .replace('{index}', () =>
      encode(String(random.pick([1, 0, -1, 2 ** 53, 'x', '1.5', randomString(random)]))),
    );
}

function query(random: Random): string {
  if (random.chance(0.5)) return '';
  const names = [
    'limit',
    'offset',
    'status',
    'after',
    'state',
    'next',
    'quality',
    randomString(random),
  ];
  const parts = Array.from({ length: random.int(1, 4) }, () => {
    const value = random.pick([String(random.int(-5, 600)), 'NaN', '1e999', randomString(random)]);
    return `${encode(random.pick(names))}=${encode(value.slice(0, 2000))}`;
  });
  return `?${parts.join('&')}`;
}

function makeBody(random: Random, operation: Operation): [string, string | Uint8Array] {
  switch (random.int(0, 9)) {
    case 0:
      return ['malformed', random.pick(['{nope', '[', '{"a":', '\u0000', '', 'null', '"x"'])];
    case 1:
      return ['deep', deepJsonText(random.pick([1000, 60_000, 200_000]))];
    case 2:
      return random.chance(0.3)
        ? ['oversized', `{"instruction":"${'x'.repeat(1024 * 1024 + random.int(1, 4096))}"}`]
        : ['large', JSON.stringify({ instruction: 'x'.repeat(random.int(9_000, 200_000)) })];
    case 3:
      return ['bytes', Uint8Array.from({ length: random.int(1, 512) }, () => random.int(0, 255))];
    case 4:
      return ['form', `token=${encode(randomString(random))}&next=${encode(randomString(random))}`];
    case 5:
      return ['jsonrpc', JSON.stringify(jsonRpc(random))];
    default:
      return operation.path === '/v1/tasks'
        ? ['task', JSON.stringify(mutatedTaskInput(random))]
        : operation.path === '/v1/waits'
          ? ['wait', JSON.stringify(waitInput(random))]
          : ['json', JSON.stringify(randomJson(random))];
  }
}

function jsonRpc(random: Random): unknown {
  const method = random.pick([
    'initialize',
    'tools/list',
    'tools/call',
    'ping',
    randomString(random),
  ]);
  const params =
    method === 'tools/call'
      ? { name: random.pick(['browser_run_task', 'x']), arguments: mutatedTaskInput(random) }
      : method === 'initialize'
        ? {
            protocolVersion: '2025-03-26',
            capabilities: {},
            clientInfo: { name: 'fuzz', version: '0' },
          }
        : randomJson(random);
  const message = {
    jsonrpc: random.pick(['2.0', '1.0', 2]),
    method,
    params,
    id: random.pick([1, 'a', null, randomJson(random)]),
  };
  return random.chance(0.2) ? [message, message] : message;
}

function waitInput(random: Random): unknown {
  return {
    conditions: random.pick([
      [
        {
          type: 'url_matches',
          pattern: random.pick(['/(a+)+$/', '/(/', '*', randomString(random)]),
        },
      ],
      [{ type: 'stable', ms: random.pick([0, 100, 600_001]) }],
      [],
      randomJson(random),
    ]),
    timeout_ms: random.pick([100, 500, 3_600_001, 'x']),
    block: random.chance(0.3),
    ...(random.chance(0.5) ? { task_id: randomString(random).slice(0, 300) } : {}),
  };
}
