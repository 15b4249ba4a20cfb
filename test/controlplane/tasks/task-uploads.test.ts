// A held file chooser (`files.upload_approval: needs_approval`) through the task's uploads and the
// real policy gate, over a faithful in-memory jail-service upload API: approved, the file is set
// and `file-uploaded` audited; denied, or with no approver, the chooser is refused, `upload-refused`
// is audited and afterStep rejects with APPROVAL_DENIED (the task ends); a held chooser nobody
// decided before the task ended is audited as such.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { UploadEvent, UploadFile } from '@clawdie/kit/jail-api';
import type { BrowserUploads } from '../../../controlplane/src/browser/uploads/jail-uploads.js';
import type {
  ApprovalRequest,
  Approver,
} from '../../../controlplane/src/governance/approvals/approval-types.js';
import { discardAuditLog } from '../../../controlplane/src/governance/audit/audit-log.js';
import { createActionGate } from '../../../controlplane/src/governance/policy/action-gate.js';
import { policySchema } from '../../../controlplane/src/governance/policy/policy-schema.js';
import { createTaskUploads } from '../../../controlplane/src/tasks/task-uploads.js';
import { createFakeOperator } from '../../support/fake-operator.js';
import { silentLogger } from '../../support/silent-logger.js';

const FILE: UploadFile = { name: 'cv.pdf', bytes: 6, sha256: 'a'.repeat(64) };
const ORIGIN = 'https://jobs.example';

/** The jail-service side: each chooser is held; `decide` ends it as the real store does. */
function heldBrowser() {
  const events: UploadEvent[] = [];
  const decided: [number, string][] = [];
  const sent: [string, boolean][] = [];
  const browser: BrowserUploads = {
    async send(name, _path, options) {
      sent.push([name, options?.hold === true]);
      return { ...FILE, name };
    },
    async list() {
      return { files: [FILE], events: events.map((event) => ({ ...event })) };
    },
    async decide(seq, decision) {
      decided.push([seq, decision]);
      const event = events.find((candidate) => candidate.seq === seq);
      if (event?.outcome !== 'held') throw new Error(`chooser ${seq} is not held`);
      event.outcome = decision === 'set' ? 'uploaded' : 'refused';
      return { ...event };
    },
    async clear() {},
  };
  const open = () =>
    events.push({
      seq: events.length + 1,
      outcome: 'held',
      file: FILE,
      origin: ORIGIN,
      accept: '.pdf',
      at: 1,
    });
  return { browser, open, decided, sent };
}

function uploadsWith(approver: Approver | undefined) {
  const jail = heldBrowser();
  const audited: [string, Record<string, unknown>][] = [];
  const asked: ApprovalRequest[] = [];
  const policy = policySchema.parse({
    tenant: 'default',
    domains: { allow: ['jobs.example'] },
    max_steps: 5,
    files: { upload: 'allowed', upload_approval: 'needs_approval' },
  });
  const gate = createActionGate({
    taskId: 'task-1',
    tenant: 'default',
    actor: 'tenant:default/alice',
    policy,
    taskDomains: undefined,
    credentialMode: 'none',
    operator: createFakeOperator().operator,
    audit: discardAuditLog,
    logger: silentLogger,
    approver: approver && {
      request: (request, signal) => {
        asked.push(request);
        return approver.request(request, signal);
      },
    },
  });
  const uploads = createTaskUploads({
    files: [{ name: 'cv.pdf', path: '/srv/uploads/cv.pdf', bytes: 6 }],
    browser: jail.browser,
    approval: { gate },
    audit: (type, data) => void audited.push([type, data]),
    logger: silentLogger,
  });
  return { uploads, jail, audited, asked };
}

const answering = (approved: boolean): Approver => ({
  request: async () =>
    approved
      ? { approved: true, approvalId: 'a1', by: 'sam' }
      : { approved: false, approvalId: 'a1', by: 'sam', why: 'denied' },
});

describe('task uploads: a held chooser', () => {
  it('sends the files with hold, and sets the file once a supervisor approves', async () => {
    const { uploads, jail, audited, asked } = uploadsWith(answering(true));
    await uploads.open();
    assert.deepEqual(jail.sent, [['cv.pdf', true]]);
    jail.open();
    await uploads.afterStep(1, new AbortController().signal);
    assert.deepEqual(jail.decided, [[1, 'set']]);
    assert.equal(asked[0]?.kind, 'file_upload');
    assert.match(
      asked[0]?.reason ?? '',
      /the page at https:\/\/jobs\.example asks for the file "cv\.pdf" \(6 bytes\)/,
    );
    assert.deepEqual(asked[0]?.detail, { file: FILE, origin: ORIGIN, accept: '.pdf' });
    assert.deepEqual(
      audited.map(([type]) => type),
      ['file-uploaded'],
    );
    assert.match(uploads.notes().join('\n'), /The file "cv\.pdf" \(6 bytes\) was set/);
  });

  it('refuses the chooser and ends the task when the supervisor denies', async () => {
    const { uploads, jail, audited } = uploadsWith(answering(false));
    await uploads.open();
    jail.open();
    await assert.rejects(uploads.afterStep(1, new AbortController().signal), {
      code: 'APPROVAL_DENIED',
    });
    assert.deepEqual(jail.decided, [[1, 'refuse']]);
    assert.deepEqual(audited, [
      [
        'upload-refused',
        { ...FILE, origin: ORIGIN, step: 1, why: 'a supervisor did not approve it' },
      ],
    ]);
  });

  it('refuses the chooser with no approver configured, without asking anyone', async () => {
    const { uploads, jail, asked } = uploadsWith(undefined);
    await uploads.open();
    jail.open();
    await assert.rejects(uploads.afterStep(1, new AbortController().signal), (error: Error) =>
      /no approver is configured/.test(error.message),
    );
    assert.deepEqual(jail.decided, [[1, 'refuse']]);
    assert.deepEqual(asked, []);
  });

  it('audits a chooser still held when the task ends as never decided', async () => {
    const { uploads, jail, audited } = uploadsWith(answering(true));
    await uploads.open();
    jail.open();
    await uploads.close();
    assert.deepEqual(jail.decided, [], 'nobody decides after the end');
    assert.deepEqual(
      audited.map(([type, data]) => [type, data.why]),
      [['upload-refused', 'the task ended before a supervisor decided']],
    );
  });
});
