// A replica killed with SIGKILL mid-task (issue 27 drill; real `npm start` processes, each with its
// own data dir and local browser, on one PostgreSQL database, heartbeat 300 ms / timeout 1.5 s,
// under their own host names when root, as on two machines): within timeout + heartbeat the
// surviving replica ends the task `error` INTERRUPTED, the client following it through the
// survivor gets that `result` without a gap, the end is audited exactly once, `audit verify`
// passes, and the dead replica's jail-service and Chromium are gone. Measured over a few kills.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { requires } from '../support/capabilities.js';
import {
  killMarks,
  type ProcessMark,
  processesOfRun,
  waitForMarksGone,
} from '../support/chromium-processes.js';
import { runClawdie } from '../support/clawdie-cli.js';
import { type PostgresCluster, startPostgres } from '../support/postgres/start-postgres.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';
import { readSse, type SseEvent } from './support/sse-reader.js';

const token = 'replica-death-admin-token-0123456789abcdef';
const heartbeatMs = 300;
const timeoutMs = 1_500;
/** Scheduling slack on a loaded 2-core machine, on top of timeout + heartbeat. */
const slackMs = 1_500;
const runs = 3;
const clicks = Array.from(
  { length: 400 },
  (_, n) => `Thought: step ${n}.\nAction: click(start_box='<|box_start|>(100,100)<|box_end|>')`,
);
/** Distinct host names need a UTS namespace (root); else the same host (the pid check). */
const ownHosts = process.getuid?.() === 0;

interface Replica {
  server: ServerProcess;
  url: string;
  dataDir: string;
}

describe('a replica killed with SIGKILL mid-task', requires('chromium', 'postgres'), () => {
  let cluster: PostgresCluster;
  let databaseUrl = '';
  let work = '';
  let env: Record<string, string> = {};
  let sql: pg.Client;
  const started: Replica[] = [];
  const leftovers: ProcessMark[] = [];

  async function startReplica(name: string, dataDir: string): Promise<Replica> {
    const server = startServerProcess(
      dataDir,
      env,
      ownHosts ? { hostname: `replica-${name}` } : {},
    );
    const url = await server.listening();
    assert.ok(url, server.output());
    const replica = { server, url, dataDir };
    started.push(replica);
    return replica;
  }

  before(async () => {
    cluster = await startPostgres();
    databaseUrl = await cluster.createDatabase();
    work = mkdtempSync(join(tmpdir(), 'clawdie-replica-death-'));
    const replay = join(work, 'clicks.json');
    writeFileSync(replay, JSON.stringify({ name: 'clicks', outputs: clicks }));
    env = {
      CLAWDIE_DATABASE_URL: databaseUrl,
      CLAWDIE_REPLAY_FILE: replay,
      CLAWDIE_ADMIN_TOKEN: token,
      CLAWDIE_REPLICA_HEARTBEAT_MS: String(heartbeatMs),
      CLAWDIE_REPLICA_TIMEOUT_MS: String(timeoutMs),
    };
    for (const name of ['a', 'b']) mkdirSync(join(work, name), { mode: 0o700 });
    sql = new pg.Client({ connectionString: databaseUrl });
    await sql.connect();
  });

  after(async () => {
    for (const replica of started) replica.server.child.kill('SIGKILL');
    await Promise.all(started.map((replica) => replica.server.exited));
    killMarks(leftovers);
    await sql?.end();
    await cluster?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  async function submit(replica: Replica): Promise<string> {
    const response = await fetch(`${replica.url}/v1/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ instruction: 'click the page', max_steps: 100 }),
      signal: AbortSignal.timeout(30_000),
    });
    const body = (await response.json()) as { trace_id?: string };
    assert.equal(response.status, 202, JSON.stringify(body));
    return body.trace_id ?? '';
  }

  /**
   * Resolves with the time the task's row is no longer running (polled every 20 ms); rejects
   * after 30 s (a sweep that never came), so a hang names itself long before the file's timeout.
   */
  async function rowEnded(id: string): Promise<number> {
    const deadline = performance.now() + 30_000;
    for (;;) {
      const { rows } = await sql.query('SELECT status FROM tasks WHERE id = $1', [id]);
      if (rows[0]?.status !== 'running') return performance.now();
      if (performance.now() > deadline)
        throw new Error(`task ${id}: its row still says running 30 s after the kill`);
      await sleep(20);
    }
  }

  /** The replica that claimed the task (tasks go through the shared queue to either). */
  async function runnerOf(id: string, among: Replica[]): Promise<Replica> {
    for (let i = 0; i < 500; i++) {
      const { rows } = await sql.query<{ url: string | null }>(
        'SELECT i.url FROM tasks t JOIN instances i ON i.id = t.owner_instance WHERE t.id = $1',
        [id],
      );
      const runner = among.find((replica) => replica.url === rows[0]?.url);
      if (runner) return runner;
      await sleep(20);
    }
    throw new Error(`task ${id} was never claimed`);
  }

  it(`ends its task INTERRUPTED within timeout + heartbeat, streamed through the survivor (${runs} kills)`, async (t) => {
    await startReplica('a', join(work, 'a'));
    // The replicas share the audit chain: B gets A's key (docs/operations.md).
    mkdirSync(join(work, 'b', 'keys'), { mode: 0o700 });
    copyFileSync(join(work, 'a', 'keys', 'audit.key'), join(work, 'b', 'keys', 'audit.key'));
    await startReplica('b', join(work, 'b'));
    const live = new Map(started.map((replica, n) => [n === 0 ? 'a' : 'b', replica]));
    const figures: string[] = [];
    let survivor = live.get('b') as Replica;
    for (let run = 1; run <= runs; run++) {
      const id = await submit(live.get('a') as Replica);
      // Either replica may claim it: kill the one that runs it, follow through the other.
      const runner = await runnerOf(id, [...live.values()]);
      const runnerName = live.get('a') === runner ? 'a' : 'b';
      survivor = live.get(runnerName === 'a' ? 'b' : 'a') as Replica;
      const pid = runner.server.child.pid ?? -1;
      const events: SseEvent[] = [];
      let killedAt = 0;
      let resultAt = 0;
      let ended: Promise<number> = Promise.resolve(0);
      let browser: ProcessMark[] = [];
      // Bounded: a stream that never brings the result fails here, saying what it brought.
      const stream = readSse(`${survivor.url}/v1/tasks/${id}/events`, {
        token,
        signal: AbortSignal.timeout(45_000),
      });
      const following = async function* () {
        try {
          yield* stream;
        } catch (error) {
          const seen = events.map((event) => `${event.id} ${event.event}`).join(', ');
          throw new Error(
            `run ${run}: no result through the survivor in 45 s (runner ${runnerName}, ${killedAt ? 'killed' : 'not killed'}; events: ${seen})`,
            { cause: error },
          );
        }
      };
      for await (const event of following()) {
        events.push(event);
        if (event.event === 'step' && killedAt === 0) {
          // Mid-run on the runner: one step done of 100.
          browser = processesOfRun(pid, `clawdie-browser-${pid}-`);
          leftovers.push(...browser);
          killedAt = performance.now();
          runner.server.child.kill('SIGKILL');
          ended = rowEnded(id);
          ended.catch(() => undefined); // awaited after the stream; a rejection is seen there
        }
        if (event.event === 'result') resultAt = performance.now();
      }
      const rowAt = await ended;
      await runner.server.exited;
      assert.ok(killedAt > 0, `a step streamed before the kill: ${JSON.stringify(events)}`);

      const { rows } = await sql.query('SELECT status, error_code FROM tasks WHERE id = $1', [id]);
      assert.deepEqual(rows[0], { status: 'error', error_code: 'INTERRUPTED' });
      const bound = timeoutMs + heartbeatMs + slackMs;
      assert.ok(rowAt - killedAt <= bound, `row ended ${rowAt - killedAt} ms after the kill`);

      const ids = events.map((event) => event.id);
      assert.deepEqual(
        ids,
        ids.map((_, index) => index + 1),
        'ids from 1, no gap',
      );
      assert.equal(events.at(-1)?.event, 'result');
      const result = JSON.parse(events.at(-1)?.data ?? '{}') as {
        status?: string;
        error?: { code?: string };
      };
      assert.equal(result.status, 'error');
      assert.equal(result.error?.code, 'INTERRUPTED');
      assert.ok(resultAt - killedAt <= bound, `result ${resultAt - killedAt} ms after the kill`);

      const audited = await sql.query(
        "SELECT data FROM audit_events WHERE task_id = $1 AND type = 'task-ended'",
        [id],
      );
      assert.equal(audited.rows.length, 1, 'one task-ended row');
      assert.match(String(audited.rows[0]?.data), /"error":"INTERRUPTED"/);

      assert.ok(
        browser.some((found) => /chrom/i.test(found.command)),
        `the runner had a local Chromium: ${JSON.stringify(browser)}`,
      );
      const left = await waitForMarksGone(browser, 10_000);
      assert.deepEqual(left, [], 'the dead replica left its jail-service or Chromium running');
      figures.push(
        `run ${run}: row ended ${(rowAt - killedAt).toFixed(0)} ms, result through the survivor ${(resultAt - killedAt).toFixed(0)} ms after SIGKILL (${browser.length} browser processes gone)`,
      );
      // The killed replica comes back for the next run, on its own data dir.
      if (run < runs) live.set(runnerName, await startReplica(runnerName, runner.dataDir));
    }

    const verified = await runClawdie(['audit', 'verify'], {
      CLAWDIE_DATA_DIR: survivor.dataDir,
      CLAWDIE_DATABASE_URL: databaseUrl,
    });
    assert.equal(verified.code, 0, verified.stdout + verified.stderr);
    for (const line of figures) t.diagnostic(line);
    t.diagnostic(
      `heartbeat ${heartbeatMs} ms, timeout ${timeoutMs} ms, ${ownHosts ? 'own host names' : 'one host (pid check)'}`,
    );
  });
});
