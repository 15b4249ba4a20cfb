// Issue 19 point 4: 2,000 unauthenticated requests to `/takeover/<8 KB id>/open` wrote 2,000 audit
// rows (1.4 MB → 25.3 MB in 5 s), each with the attacker's path and a spoofed X-Forwarded-For.
// Every route that audits a refusal now goes through the one failure limiter (429 past it, a
// bounded number of rows per address and window), audit rows hold bounded fields only, and
// X-Forwarded-For counts only from a configured trusted proxy. Real server on loopback, real
// SQLite file; each route is flooded from its own loopback address (127.0.0.N) so each meets a
// fresh limiter window. The reported 2,000 requests a route run in `npm run test:soak`
// (test/support/test-size.ts); `npm test` sends 500 (16× the limit) and 100 to the others.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { createReplayModel } from '../../controlplane/src/agent/model/replay-model.js';
import type { AuditRecord } from '../../controlplane/src/governance/audit/audit-log.js';
import { createAuthFixture } from '../controlplane/governance/auth/auth-fixture.js';
import { createTestControlplane } from '../support/controlplane.js';
import { CLAWDIE_ARGV } from '../support/current-build.js';
import { sized } from '../support/test-size.js';

const LIMIT = 30;
/** To the routes of the report, and (still over 3× the limit) to the others. */
const REPORTED = sized(500, 2000);
const OTHERS = sized(100, 300);
/** What the route-level cap allows for one attacker-controlled string in an audit row. */
const FIELD_CAP = 256;
const longId = `t${'A'.repeat(8 * 1024)}`;
const bigAgent = `flood/${'U'.repeat(1000)}`;

interface Call {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** One request over a keep-alive agent from `localAddress`; resolves with the status. */
function send(base: URL, agent: Agent, localAddress: string, call: Call, xff: string) {
  return new Promise<number>((resolve, reject) => {
    const outgoing = request(
      {
        host: base.hostname,
        port: base.port,
        method: call.method,
        path: call.path,
        agent,
        localAddress,
        headers: { 'x-forwarded-for': xff, 'user-agent': bigAgent, ...call.headers },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(call.body);
  });
}

/** `count` requests, 16 at a time, each with a different spoofed X-Forwarded-For. */
async function flood(base: URL, localAddress: string, call: Call, count: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const xff = `203.0.113.${i % 250}, 198.51.100.${(i * 7) % 250}`;
      const status = await send(base, agent, localAddress, call, xff);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  agent.destroy();
  return statuses;
}

/** Every string in a row (type, actor, task id, data values and keys), for the cap check. */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, out);
  else if (value && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      stringsOf(item, out);
    }
  return out;
}

const bytesOf = (file: string) =>
  (existsSync(file) ? statSync(file).size : 0) +
  (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);

function runAuditVerify(dataDir: string) {
  return new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const child = spawn(process.execPath, [...CLAWDIE_ARGV, 'audit', 'verify'], {
      env: { ...process.env, CLAWDIE_LOG_LEVEL: 'silent', CLAWDIE_DATA_DIR: dataDir },
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stdout += chunk;
    });
    child.on('exit', (code) => resolve({ code, stdout }));
  });
}

const form = { 'content-type': 'application/x-www-form-urlencoded' };
const json = { 'content-type': 'application/json' };
/** Every route that audits a refused request, each with an attacker-sized path or id. */
const routes: { name: string; call: Call; count?: number }[] = [
  {
    name: 'GET takeover open',
    count: REPORTED,
    call: { method: 'GET', path: `/takeover/${longId}/open?t=junk` },
  },
  {
    name: 'POST takeover open',
    count: REPORTED,
    call: { method: 'POST', path: `/takeover/${longId}/open`, headers: form, body: 't=junk' },
  },
  { name: 'GET takeover status', call: { method: 'GET', path: `/takeover/${longId}/status` } },
  {
    name: 'POST takeover hand-back',
    call: { method: 'POST', path: `/takeover/${longId}/hand-back`, headers: json, body: '{}' },
  },
  {
    name: 'POST takeover input',
    call: {
      method: 'POST',
      path: `/takeover/${longId}/input`,
      headers: json,
      body: '{"events":[]}',
    },
  },
  { name: 'GET /v1 task', call: { method: 'GET', path: `/v1/tasks/${longId}` } },
  {
    name: 'POST /v1 hand-back',
    call: {
      method: 'POST',
      path: `/v1/tasks/${longId}/hand-back`,
      headers: { ...json, authorization: 'Bearer a.b.c' },
      body: '{}',
    },
  },
  { name: 'GET /v1 unknown', call: { method: 'GET', path: `/v1/${longId}` } },
  {
    name: 'POST /mcp',
    call: { method: 'POST', path: `/mcp?${longId}`, headers: json, body: '{}' },
  },
  {
    name: 'POST dashboard login',
    call: {
      method: 'POST',
      path: `/dashboard/login?${longId}`,
      headers: form,
      body: `token=wrong&next=${longId}`,
    },
  },
];

describe('security: a flood of refused requests keeps the audit log bounded', () => {
  it(`adds a handful of bounded rows per route for ${REPORTED} (or ${OTHERS}) requests each, and ignores spoofed X-Forwarded-For`, async (t) => {
    const fixture = await createAuthFixture();
    t.after(() => rmSync(dirname(fixture.file), { recursive: true, force: true }));
    const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-flood-'));
    const controlplane = await createTestControlplane({
      role: 'server',
      model: createReplayModel(["Action: finished(content='ok')"]),
      env: {
        CLAWDIE_DATA_DIR: dataDir,
        CLAWDIE_AUTH_REQUIRED: 'true',
        CLAWDIE_AUTH_JWKS_FILE: fixture.file,
        CLAWDIE_AUTH_FAILURE_LIMIT: String(LIMIT),
      },
    });
    let closing: Promise<void> | null = null;
    const close = () => {
      closing ??= controlplane.close();
      return closing;
    };
    t.after(async () => {
      await close();
      rmSync(dataDir, { recursive: true, force: true });
    });
    const { audit, config } = controlplane;
    const base = new URL(await controlplane.serve());
    const report: string[] = [];
    const problems: string[] = [];
    const rowsAtStart = (await audit.list({ limit: 1_000_000 })).length;
    const bytesAtStart = bytesOf(config.databasePath);
    const check = (ok: boolean, problem: string) => {
      if (!ok) problems.push(problem);
    };

    for (const [index, { name, call, count = OTHERS }] of routes.entries()) {
      const source = `127.0.0.${index + 2}`;
      const rowsBefore = (await audit.list({ limit: 1_000_000 })).length;
      const bytesBefore = bytesOf(config.databasePath);
      const started = performance.now();
      const statuses = await flood(base, source, call, count);
      const added: AuditRecord[] = await audit.list({ afterSeq: rowsBefore, limit: 1_000_000 });
      const grown = bytesOf(config.databasePath) - bytesBefore;
      report.push(
        `${name}: +${added.length} rows, +${grown} bytes, ${Math.round(performance.now() - started)} ms, ${JSON.stringify([...statuses])}`,
      );
      check(added.length <= 5, `${name}: ${count} refusals added ${added.length} rows`);
      check(added.length >= 1, `${name}: the refusals were not audited at all`);
      check(grown < 512 * 1024, `${name}: the database grew by ${grown} bytes`);
      check(statuses.get(429) === count - LIMIT, `${name}: ${JSON.stringify([...statuses])}`);
      const longest = Math.max(0, ...added.flatMap((row) => stringsOf(row).map((s) => s.length)));
      check(longest <= FIELD_CAP, `${name}: a stored field of ${longest} chars`);
      const sources = [...new Set(added.map((row) => row.data.source ?? row.data.address))];
      check(
        sources.length === 1 && sources[0] === source,
        `${name}: recorded ${sources.length} sources, e.g. ${JSON.stringify(sources.slice(0, 2))}`,
      );
      const stored = JSON.stringify(added);
      check(!/203\.0\.113\.|198\.51\.100\./.test(stored), `${name}: spoofed XFF stored`);
      check(!stored.includes('UUUUUUUU'), `${name}: the user agent was stored`);
    }
    const total = (await audit.list({ limit: 1_000_000 })).length - rowsAtStart;
    const grown = bytesOf(config.databasePath) - bytesAtStart;
    report.push(`all ${routes.length} routes: +${total} rows, +${grown} bytes (database + WAL)`);
    const [example] = await audit.list({ afterSeq: rowsAtStart, limit: 1 });
    report.push(`first row: ${JSON.stringify(example)}`);
    for (const line of report) t.diagnostic(line);
    assert.deepEqual(problems, []);

    await close();
    const verified = await runAuditVerify(dataDir);
    assert.equal(verified.code, 0, verified.stdout);
    assert.match(verified.stdout, /audit log intact/);
  });

  it('takes the client address from X-Forwarded-For only when the peer is a trusted proxy', async (t) => {
    const controlplane = await createTestControlplane({
      role: 'embedded',
      env: { CLAWDIE_TRUSTED_PROXIES: '127.0.0.0/8', CLAWDIE_AUTH_FAILURE_LIMIT: '5' },
    });
    t.after(() => controlplane.close());
    const base = new URL(await controlplane.serve());
    const agent = new Agent({ keepAlive: true });
    t.after(() => agent.destroy());
    const call: Call = { method: 'GET', path: '/takeover/task-1/open?t=junk' };
    const rowsBefore = (await controlplane.audit.list({ limit: 1000 })).length;
    const statuses: number[] = [];
    // The proxy (127.0.0.9, trusted) appended the client it saw; the client's own left-most
    // entry is a spoof and is skipped because 127.0.0.0/8 are proxies.
    for (let i = 0; i < 8; i += 1)
      statuses.push(
        await send(base, agent, '127.0.0.9', call, `10.1.1.1, 198.51.100.9, 127.0.0.8`),
      );
    assert.deepEqual(statuses, [403, 403, 403, 403, 403, 429, 429, 429]);
    const other = await send(base, agent, '127.0.0.9', call, '198.51.100.10');
    assert.equal(other, 403, 'another client behind the same proxy has its own window');
    const sources = (await controlplane.audit.list({ afterSeq: rowsBefore, limit: 1000 })).map(
      (row) => row.data.source,
    );
    assert.deepEqual(sources, ['198.51.100.9', '198.51.100.10']);
  });
});
