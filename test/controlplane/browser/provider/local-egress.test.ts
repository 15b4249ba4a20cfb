// The local browser's egress proxy (no hostd) without a browser: the real proxy on loopback,
// probed as Chromium would ask it, with a recording audit log and a scripted resolver.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSingleBrowserProvider } from '../../../../controlplane/src/browser/provider/browser-provider.js';
import {
  startLocalEgress,
  taskExceptions,
  withLocalEgress,
} from '../../../../controlplane/src/browser/provider/local-egress.js';
import type {
  AuditEvent,
  AuditLog,
  AuditRecord,
} from '../../../../controlplane/src/governance/audit/audit-log.js';
import { connectThrough } from '../../../hostd/support/proxy-probe.js';
import { createFakeOperator } from '../../../support/fake-operator.js';
import { silentLogger } from '../../../support/silent-logger.js';

function recordingAudit(): AuditLog & { rows: AuditEvent[] } {
  const rows: AuditEvent[] = [];
  return {
    rows,
    async append(event) {
      rows.push(event);
      return event as unknown as AuditRecord;
    },
  };
}

/** A listener that only says whether anything connected (the proxy must refuse before it). */
async function start(audit: AuditLog, answers: Record<string, string> = {}) {
  return startLocalEgress({
    audit,
    logger: silentLogger,
    allowInternal: ['127.0.0.1:9'],
    resolver: {
      async resolve(host) {
        const address = answers[host] ?? host;
        return [{ address, family: 4 }];
      },
    },
  });
}

describe('local egress: the task holding the local browser sets its allowlist', () => {
  it('takes exact IP:port entries of a task as exceptions, never names', () => {
    assert.deepEqual(
      taskExceptions(
        ['127.0.0.1:8700', '[::1]:8701', 'localhost:8702', 'shop.test', '10.0.0.5'],
        ['127.0.0.1:9'],
      ),
      ['127.0.0.1:9', '127.0.0.1:8700', '[::1]:8701'],
    );
  });

  it('denies everything until a task takes the browser and after it gives it back', async (t) => {
    const audit = recordingAudit();
    const egress = await start(audit, { 'shop.test': '93.184.216.34' });
    t.after(() => egress.close());
    const provider = withLocalEgress(
      createSingleBrowserProvider(createFakeOperator().operator),
      egress,
    );
    assert.equal(await connectThrough(egress.url, 'shop.test:443'), 403);
    assert.equal(audit.rows.at(-1)?.taskId, null, 'before any task: nobody’s');

    const lease = await provider.acquire({ taskId: 'task-1', allowedDomains: ['ok.test'] });
    assert.equal(await connectThrough(egress.url, 'shop.test:443'), 403);
    await lease.release();
    await lease.release();
    assert.equal(await connectThrough(egress.url, 'ok.test:443'), 403, 'empty between tasks');
    assert.deepEqual(
      audit.rows.map((row) => [row.taskId, row.data?.host]),
      [
        [null, 'shop.test'],
        ['task-1', 'shop.test'],
        // After release: the last holder's page is what is still open.
        ['task-1', 'ok.test'],
      ],
    );
  });

  it('writes the same egress-refused row as hostd mode', async (t) => {
    const audit = recordingAudit();
    const egress = await start(audit);
    t.after(() => egress.close());
    egress.hold('task-7', ['ok.test']);
    assert.equal(await connectThrough(egress.url, 'evil.test:443'), 403);
    const [row] = audit.rows;
    assert.equal(row?.type, 'egress-refused');
    assert.equal(row?.actor, 'system');
    assert.equal(row?.taskId, 'task-7');
    assert.deepEqual(Object.keys(row?.data ?? {}).sort(), [
      'at',
      'clone',
      'generation',
      'host',
      'method',
      'port',
      'reason',
    ]);
    assert.deepEqual(
      { ...row?.data, at: undefined },
      {
        clone: 'local',
        generation: 1,
        host: 'evil.test',
        port: 443,
        method: 'CONNECT',
        reason: 'not-allowed',
        at: undefined,
      },
    );
  });

  it('lets a task reach an internal address only by an exact IP:port in its domains', async (t) => {
    const audit = recordingAudit();
    // `rebind.test` is allowed by name but resolves to loopback (DNS rebinding).
    const egress = await start(audit, { 'rebind.test': '127.0.0.1' });
    t.after(() => egress.close());
    egress.hold('task-1', ['127.0.0.1:1', 'rebind.test:1', '127.0.0.1']);
    // Allowed and excepted: the proxy connects (port 1 has no listener, so 502, not 403).
    assert.equal(await connectThrough(egress.url, '127.0.0.1:1'), 502);
    assert.equal(await connectThrough(egress.url, 'rebind.test:1'), 502, 'same address:port');
    assert.equal(await connectThrough(egress.url, '127.0.0.1:2'), 403, 'another port');
    assert.equal(await connectThrough(egress.url, '127.0.0.1:80'), 403, 'a bare IP is 80/443');
    egress.hold('task-2', ['rebind.test:1']);
    assert.equal(await connectThrough(egress.url, 'rebind.test:1'), 403, 'a name excepts nothing');
    assert.equal(
      await connectThrough(egress.url, '127.0.0.1:1'),
      403,
      'task-1’s exception is gone',
    );
    assert.deepEqual(
      audit.rows.map((row) => [row.taskId, row.data?.port, row.data?.reason]),
      [
        ['task-1', 2, 'not-allowed'],
        ['task-1', 80, 'blocked-address'],
        ['task-2', 1, 'blocked-address'],
        ['task-2', 1, 'not-allowed'],
      ],
    );
  });
});
