// Two controlplane replicas (real `npm start` processes, each with its own data dir and local
// browser) on one PostgreSQL database (issue 27 drills): 30 tasks submitted round-robin and each
// followed to its result through the OTHER replica; a replica killed with SIGKILL mid-stream,
// its client resuming through the survivor with Last-Event-ID, without a gap or a duplicate;
// PostgreSQL restarted under a running task, which ends, with the audit chain intact.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { requires } from '../support/capabilities.js';
import { runClawdie } from '../support/clawdie-cli.js';
import { type PostgresCluster, startPostgres } from '../support/postgres/start-postgres.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';
import { readSse, type SseEvent } from './support/sse-reader.js';

const token = 'replica-drill-admin-token-0123456789abcdef';
/** Every step clicks the blank page; a task ends when its max_steps run out. */
const clicks = Array.from(
  { length: 400 },
  (_, n) => `Thought: step ${n}.\nAction: click(start_box='<|box_start|>(100,100)<|box_end|>')`,
);

interface Replica {
  server: ServerProcess;
  url: string;
  dataDir: string;
}

describe('controlplane replicas on one PostgreSQL', requires('chromium', 'postgres'), () => {
  let cluster: PostgresCluster;
  let databaseUrl = '';
  const replicas: Replica[] = [];
  const dirs: string[] = [];

  before(async () => {
    cluster = await startPostgres();
    databaseUrl = await cluster.createDatabase();
    const work = mkdtempSync(join(tmpdir(), 'clawdie-replicas-'));
    dirs.push(work);
    const replay = join(work, 'clicks.json');
    writeFileSync(replay, JSON.stringify({ name: 'clicks', outputs: clicks }));
    const env = {
      CLAWDIE_DATABASE_URL: databaseUrl,
      CLAWDIE_REPLAY_FILE: replay,
      CLAWDIE_ADMIN_TOKEN: token,
    };
    for (const name of ['a', 'b']) {
      const dataDir = join(work, name);
      mkdirSync(dataDir, { mode: 0o700 });
      const first = replicas[0];
      if (first) {
        // Replicas share the audit chain: the second gets the first's key (docs/operations.md).
        mkdirSync(join(dataDir, 'keys'), { mode: 0o700 });
        copyFileSync(join(first.dataDir, 'keys', 'audit.key'), join(dataDir, 'keys', 'audit.key'));
      }
      const server = startServerProcess(dataDir, env);
      const url = await server.listening();
      assert.ok(url, server.output());
      replicas.push({ server, url, dataDir });
    }
  });

  after(async () => {
    for (const replica of replicas) replica.server.child.kill('SIGKILL');
    await Promise.all(replicas.map((replica) => replica.server.exited));
    await cluster?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  async function submit(replica: Replica, maxSteps: number): Promise<string> {
    const response = await fetch(`${replica.url}/v1/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ instruction: 'click the page', max_steps: maxSteps }),
    });
    const body = (await response.json()) as { trace_id?: string };
    assert.equal(response.status, 202, JSON.stringify(body));
    return body.trace_id ?? '';
  }

  async function follow(replica: Replica, taskId: string, lastId = 0): Promise<SseEvent[]> {
    const events: SseEvent[] = [];
    for await (const event of readSse(`${replica.url}/v1/tasks/${taskId}/events`, {
      token,
      lastId,
    }))
      events.push(event);
    return events;
  }

  it('follows each of 30 tasks, submitted round-robin, through the other replica', async (t) => {
    const [a, b] = replicas as [Replica, Replica];
    const started = Date.now();
    const submitted = await Promise.all(
      Array.from({ length: 30 }, async (_, n) => {
        const to = n % 2 === 0 ? a : b;
        return { id: await submit(to, 1), other: to === a ? b : a };
      }),
    );
    const streams = await Promise.all(submitted.map(({ id, other }) => follow(other, id)));
    for (const [n, events] of streams.entries()) {
      const ids = events.map((event) => event.id);
      assert.deepEqual(
        ids,
        ids.map((_, index) => index + 1),
        `task ${n}: ids from 1, no gap`,
      );
      assert.equal(events.at(-1)?.event, 'result', `task ${n} ends with its result`);
      assert.ok(
        events.some((event) => event.event === 'step'),
        `task ${n} streamed its step`,
      );
    }
    t.diagnostic(
      `30 tasks on 2 replicas, each followed through the other: ${Date.now() - started} ms`,
    );
  });

  /** The replica whose instance claimed the task (tasks are dispatched through a shared queue). */
  async function runnerOf(taskId: string): Promise<Replica> {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      for (let i = 0; i < 500; i++) {
        const { rows } = await client.query<{ url: string | null }>(
          'SELECT i.url FROM tasks t JOIN instances i ON i.id = t.owner_instance WHERE t.id = $1',
          [taskId],
        );
        const runner = replicas.find((replica) => replica.url === rows[0]?.url);
        if (runner) return runner;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`task ${taskId} was never claimed`);
    } finally {
      await client.end();
    }
  }

  it('a client whose replica is killed mid-stream resumes through the other, no gap', async (t) => {
    // The task runs on one replica (whichever fetched it); its client follows through the other
    // until that one dies.
    const id = await submit(replicas[1] as Replica, 4);
    const runner = await runnerOf(id);
    const other = replicas.find((replica) => replica !== runner) as Replica;
    const seen: SseEvent[] = [];
    for await (const event of readSse(`${other.url}/v1/tasks/${id}/events`, { token })) {
      seen.push(event);
      if (event.event === 'step') {
        other.server.child.kill('SIGKILL');
        break;
      }
    }
    await other.server.exited;
    const lastId = seen.at(-1)?.id ?? 0;
    assert.ok(lastId > 0, 'events arrived through A before it died');
    const rest = await follow(runner, id, lastId);
    const ids = [...seen, ...rest].map((event) => event.id);
    assert.deepEqual(
      ids,
      ids.map((_, index) => index + 1),
      'one numbering, no gap, no duplicate',
    );
    const result = JSON.parse(rest.at(-1)?.data ?? '{}') as { step_count?: number };
    assert.equal(rest.at(-1)?.event, 'result');
    assert.equal(result.step_count, 4, 'the task ran all its steps on its runner');
    t.diagnostic(`resumed at id ${lastId}, ${rest.length} more events through the runner`);
  });

  it('rides out a PostgreSQL restart during a task: it ends, and audit verify passes', async (t) => {
    // The survivor of the drill above: it submits and runs the task.
    const alive = replicas.find((replica) => replica.server.child.signalCode === null);
    const id = await submit(alive as Replica, 6);
    const b = await runnerOf(id);
    const seen: SseEvent[] = [];
    let restartedAt = 0;
    for await (const event of readSse(`${b.url}/v1/tasks/${id}/events`, { token })) {
      seen.push(event);
      if (event.event === 'step' && restartedAt === 0) {
        restartedAt = Date.now();
        // Down for a second: every connection of the replica is cut.
        await cluster.restart(1_000);
        break;
      }
    }
    const rest = await follow(b, id, seen.at(-1)?.id ?? 0);
    const ids = [...seen, ...rest].map((event) => event.id);
    assert.deepEqual(
      ids,
      ids.map((_, index) => index + 1),
      'no gap in the stream across the restart',
    );
    const result = JSON.parse(rest.at(-1)?.data ?? '{}') as {
      status?: string;
      step_count?: number;
    };
    assert.equal(rest.at(-1)?.event, 'result');
    assert.equal(result.step_count, 6, `the task ran on: ${JSON.stringify(result)}`);
    const verified = await runClawdie(['audit', 'verify'], {
      CLAWDIE_DATA_DIR: b.dataDir,
      CLAWDIE_DATABASE_URL: databaseUrl,
    });
    assert.equal(verified.code, 0, verified.stdout + verified.stderr);
    const rows = /audit log intact: (\d+) rows/.exec(verified.stdout + verified.stderr);
    assert.ok(rows, verified.stdout + verified.stderr);
    t.diagnostic(
      `restart ${Date.now() - restartedAt} ms before the end; ${rows[1]} audit rows verify`,
    );
  });
});
