// Reduced isolation for real (root), registered by linux-driver.test.ts: the real hostd (main.ts)
// runs in its own mount namespace where a privilege is taken away — nft hidden behind /dev/null,
// the cgroup root a read-only cgroup2 mount, bubblewrap hidden — and must say so: a warning at
// start, `reduced` with a reason on /health and on each clone, clones that still start; or, where
// even reduced isolation is impossible, a clear refusal.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Health, LEASE_HEADER, type LeasedClone } from '../../../hostd/src/api/schema.js';
import {
  listeningTcp,
  settledLeftovers,
  TEST_CGROUP,
  TEST_STATE_ROOT,
  UID_BASE,
} from './linux-harness.js';

const HOSTD_MAIN = fileURLToPath(new URL('../../../hostd/src/main.ts', import.meta.url));
const TOKEN = 'reduced-test-token-0123456789';
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

interface LogLine {
  level: number;
  msg: string;
  reasons?: string[];
  address?: { port: number };
}

interface RunningHostd {
  url: string;
  /** Every log line up to "hostd listening". */
  startLog: LogLine[];
  stop(): Promise<number | null>;
}

/**
 * Starts hostd's main.ts as root in a private mount namespace after `setup` (shell commands that
 * take a privilege away there only). Resolves once it listens; rejects with its stderr if it exits.
 */
function startHostd(setup: string[], env: Record<string, string> = {}): Promise<RunningHostd> {
  const script = [...setup, 'exec "$@"'].join(' && ');
  const child = spawn(
    '/usr/bin/unshare',
    [
      '-m',
      '/bin/sh',
      '-c',
      script,
      'sh',
      process.execPath,
      '--conditions=source',
      '--import',
      'tsx',
      HOSTD_MAIN,
    ],
    {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        CLAWDIE_HOSTD_TOKEN: TOKEN,
        CLAWDIE_HOSTD_PORT: '0',
        CLAWDIE_HOSTD_STATE_DIR: TEST_STATE_ROOT,
        CLAWDIE_HOSTD_CGROUP_NAME: TEST_CGROUP,
        CLAWDIE_HOSTD_UID_BASE: String(UID_BASE),
        CLAWDIE_LOG_LEVEL: 'info',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const lines: string[] = [];
  const startLog: LogLine[] = [];
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stderr }).on('line', (text) => {
      lines.push(text);
      let line: LogLine;
      try {
        line = JSON.parse(text) as LogLine;
      } catch {
        return;
      }
      startLog.push(line);
      if (line.msg !== 'hostd listening') return;
      resolve({
        url: `http://127.0.0.1:${line.address?.port}`,
        startLog: [...startLog],
        stop: async () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    });
    void exited.then((code) => reject(new HostdExit(code, lines.join('\n'))));
  });
}

class HostdExit extends Error {
  readonly exitCode: number | null;
  readonly stderr: string;
  constructor(exitCode: number | null, stderr: string) {
    super(`hostd exited with ${exitCode}:\n${stderr}`);
    this.exitCode = exitCode;
    this.stderr = stderr;
  }
}

/** What every reduced host must show, end to end through hostd's API. */
async function assertReducedButWorking(hostd: RunningHostd, reason: RegExp): Promise<void> {
  const warning = hostd.startLog.find((line) => line.level === 40 && /REDUCED/.test(line.msg));
  assert.ok(warning, `hostd warns at start: ${JSON.stringify(hostd.startLog)}`);
  assert.ok(
    warning.reasons?.some((text) => reason.test(text)),
    JSON.stringify(warning),
  );

  const health = (await (await fetch(`${hostd.url}/health`, { headers })).json()) as Health;
  assert.equal(health.isolation.level, 'reduced');
  assert.ok(
    health.isolation.reasons.some((text) => reason.test(text)),
    JSON.stringify(health),
  );

  const created = await fetch(`${hostd.url}/clones`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ taskId: 'reduced', allowedDomains: ['example.com'] }),
  });
  assert.equal(created.status, 201, await created.clone().text());
  const clone = (await created.json()) as LeasedClone;
  assert.equal(clone.isolation.level, 'reduced');
  assert.ok(clone.isolation.reasons.some((text) => reason.test(text)));
  const service = await fetch(`${clone.service.url}/health`, {
    headers: { authorization: `Bearer ${clone.service.token}` },
  });
  assert.equal(service.status, 200);
  const proxy = new URL(clone.egressProxyUrl ?? '').host;
  assert.ok(listeningTcp().includes(proxy), `the egress proxy ${proxy} listens`);
  const deleted = await fetch(`${hostd.url}/clones/${clone.name}`, {
    method: 'DELETE',
    headers: { ...headers, [LEASE_HEADER]: clone.leaseId },
  });
  assert.deepEqual(((await deleted.json()) as { leftovers: string[] }).leftovers, []);
  assert.ok(!listeningTcp().includes(proxy), `the egress proxy ${proxy} is closed`);
}

export function registerReducedIsolationTests(): void {
  describe('hostd on a host missing a privilege (reduced isolation, never silent)', () => {
    it('without nft: no network namespace, reported; a clone still starts and answers', async () => {
      const hostd = await startHostd(['mount --bind /dev/null /usr/sbin/nft']);
      try {
        await assertReducedButWorking(hostd, /no network namespace: .*\/usr\/sbin\/nft missing/);
      } finally {
        assert.equal(await hostd.stop(), 0);
      }
      assert.deepEqual(await settledLeftovers(), []);
    });

    it('with a read-only cgroup root: no resource limits, reported; a clone still starts', async () => {
      const cgroupRoot = mkdtempSync(`${tmpdir()}/ro-cgroup-`);
      try {
        const hostd = await startHostd([`mount -t cgroup2 -o ro none ${cgroupRoot}`], {
          CLAWDIE_HOSTD_CGROUP_ROOT: cgroupRoot,
        });
        try {
          await assertReducedButWorking(hostd, /no resource limits: cgroups not writable: EROFS/);
        } finally {
          assert.equal(await hostd.stop(), 0);
        }
      } finally {
        rmSync(cgroupRoot, { recursive: true, force: true });
      }
      assert.deepEqual(await settledLeftovers(), []);
    });

    it('without bubblewrap: refuses to start, naming what is missing and how to install it', async () => {
      const refusal = await startHostd(['mount --bind /dev/null /usr/bin/bwrap']).then(
        async (hostd) => {
          await hostd.stop();
          return null;
        },
        (error: unknown) => error,
      );
      assert.ok(refusal instanceof HostdExit, 'hostd must not start');
      assert.equal(refusal.exitCode, 1);
      assert.match(
        refusal.stderr,
        /^hostd: \/usr\/bin\/bwrap is missing \(apt-get install bubblewrap util-linux\)$/m,
      );
    });
  });
}
