// A throwaway PostgreSQL cluster for tests: initdb into a temp dir, one postgres listening only
// on a unix socket inside it, fsync off. postgres refuses to run as root, so under root (CI) the
// cluster belongs to `nobody`; otherwise to the current user. The postmaster gets SIGQUIT when
// this process dies in any way (setpriv --pdeathsig), so a crashed test leaves no orphan.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  chownSync,
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import pg from 'pg';
import { postgresBin } from '../capabilities.js';

const setpriv = '/usr/bin/setpriv';
const USER = 'clawdie';
const PREFIX = 'clawdie-pg-';

export interface PostgresCluster {
  /** The cluster's `postgres` database (for administration). */
  url: string;
  /** Creates a fresh, empty database and returns its URL. */
  createDatabase(): Promise<string>;
  /**
   * Fast shutdown (every connection is cut), `downMs` with no server, then the same cluster starts
   * again; resolves once it accepts connections.
   */
  restart(downMs?: number): Promise<void>;
  /** Fast shutdown, then removes the temp dir. */
  stop(): Promise<void>;
}

/** The account the cluster runs as: `nobody` under root, else null (the current user). */
function clusterAccount(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'nobody']).toString().trim());
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * argv that runs `argv` as `account` and, with `die`, gets SIGQUIT when this process dies. Both
 * need setpriv (capabilities require it under root); without it a non-root run goes unguarded.
 */
function asAccount(account: { uid: number; gid: number } | null, argv: string[], die?: boolean) {
  const drop = account
    ? [`--reuid=${account.uid}`, `--regid=${account.gid}`, '--clear-groups']
    : [];
  if (!account && (!die || !existsSync(setpriv))) return argv;
  return [setpriv, ...drop, ...(die ? ['--pdeathsig', 'QUIT'] : []), ...argv];
}

const urlOf = (dir: string, database: string) =>
  `postgres://${USER}@localhost/${database}?host=${encodeURIComponent(dir)}`;

/**
 * Removes the temp dirs of clusters whose test process was killed: the postmaster followed it
 * (SIGQUIT removes its postmaster.pid), the dir stayed. A dir without postmaster.pid is left
 * alone for two minutes, while another test may still be running initdb in it.
 */
/** The pid of the test process a cluster belongs to, written before anything else. */
const OWNER_FILE = 'owner.pid';

function sweepCrashed(): void {
  for (const entry of readdirSync(tmpdir())) {
    if (!entry.startsWith(PREFIX)) continue;
    const dir = join(tmpdir(), entry);
    try {
      // Only the test process that made a cluster decides when it is done with it: another
      // file's cluster, even mid-initdb (its postmaster.pid may name a step that just exited),
      // is left alone while that process lives.
      const owner = join(dir, OWNER_FILE);
      if (existsSync(owner)) process.kill(Number(readFileSync(owner, 'utf8')), 0);
      else if (Date.now() - statSync(dir).mtimeMs > 600_000)
        rmSync(dir, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') {
        // The owner is gone: stop a postmaster it left (pdeathsig normally did), then remove.
        killLeftPostmaster(dir);
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
}

function killLeftPostmaster(dir: string): void {
  try {
    const pid = Number(readFileSync(join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (pid > 0) process.kill(pid, 'SIGQUIT');
  } catch {
    // No pid file or no such process: nothing left running.
  }
}

/**
 * The cluster of one test file: started on first use, stopped after the file's tests. Call at
 * the top of the file; `database()` makes a fresh database and returns its URL.
 */
export function fileCluster(): {
  cluster(): Promise<PostgresCluster>;
  database(): Promise<string>;
} {
  let started: Promise<PostgresCluster> | null = null;
  after(async () => {
    if (started) await (await started).stop();
  });
  const cluster = () => {
    started ??= startPostgres();
    return started;
  };
  return { cluster, database: async () => (await cluster()).createDatabase() };
}

export async function startPostgres(): Promise<PostgresCluster> {
  sweepCrashed();
  const dir = mkdtempSync(join(tmpdir(), PREFIX));
  writeFileSync(join(dir, OWNER_FILE), String(process.pid));
  const account = clusterAccount();
  if (account) chownSync(dir, account.uid, account.gid);
  const data = join(dir, 'data');
  const logPath = join(dir, 'postgres.log');
  const [init, ...initArgs] = asAccount(account, [
    join(postgresBin, 'initdb'),
    ...['-D', data, '-U', USER, '--auth=trust', '--no-sync', '--no-instructions'],
    // A non-C default collation, like most production clusters: ordering must not rely on it.
    ...['--encoding=UTF8', '--locale=C.UTF-8', '--locale-provider=icu', '--icu-locale=en'],
  ]);
  try {
    // The cluster's own directory as cwd: the account may not enter ours (a checkout under a
    // mode-0700 directory, as CI's clone is), and initdb fails half-way when it cannot.
    execFileSync(init as string, initArgs, { stdio: 'pipe', cwd: dir });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`initdb failed: ${stderr || (error as Error).message}`);
  }
  const spawnServer = () => {
    const log = openSync(logPath, 'a');
    if (account) chownSync(logPath, account.uid, account.gid);
    const [program, ...args] = asAccount(
      account,
      [
        join(postgresBin, 'postgres'),
        ...['-D', data, '-k', dir, '-c', 'listen_addresses='],
        ...['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
        ...['-c', 'shared_buffers=16MB', '-c', 'max_connections=40'],
      ],
      true,
    );
    const spawned = spawn(program as string, args, { stdio: ['ignore', log, log], cwd: dir });
    closeSync(log);
    return spawned;
  };
  let child = spawnServer();
  const removeNow = () => {
    child.kill('SIGQUIT');
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  };
  process.on('exit', removeNow);
  try {
    await waitReady(child, urlOf(dir, 'postgres'), logPath);
  } catch (error) {
    process.off('exit', removeNow);
    removeNow();
    throw error;
  }
  const shutDown = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  let databases = 0;
  return {
    url: urlOf(dir, 'postgres'),
    async createDatabase() {
      const name = `test_${++databases}`;
      const admin = new pg.Client({ connectionString: urlOf(dir, 'postgres') });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE "${name}"`);
      } finally {
        await admin.end();
      }
      return urlOf(dir, name);
    },
    async restart(downMs = 0) {
      await shutDown();
      if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
      child = spawnServer();
      await waitReady(child, urlOf(dir, 'postgres'), logPath);
    },
    async stop() {
      process.off('exit', removeNow);
      await shutDown();
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

/** Resolves once the server accepts a connection; rejects with its log when it exits first. */
async function waitReady(child: ChildProcess, url: string, logPath: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      const why = child.exitCode !== null ? `exited with ${child.exitCode}` : 'did not start';
      throw new Error(`postgres ${why}: ${readFileSync(logPath, 'utf8').slice(-2000)}`);
    }
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
