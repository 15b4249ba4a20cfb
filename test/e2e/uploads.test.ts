// Issue 23 (2, 4): the upload-form trap in local mode (the composition root, real Chromium). A
// task provides a file from an allowlisted directory; a scripted model clicks `<input type=file>`
// and submits: the server gets the same bytes, the upload is audited and told to the model, the
// evidence verifies the POST, the clone's upload directory is gone after. Paths outside the list
// (direct, `..`, symlink) and another tenant's artifact are refused at admission; under
// `upload_approval: needs_approval` the held chooser gets the file only when approved.
import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { modelDivisors } from '../../controlplane/src/agent/uitars/index.js';
import {
  type LocalJailService,
  startLocalJailService,
} from '../../controlplane/src/browser/provider/local-jail-service.js';
import {
  loopbackPrincipal,
  type Principal,
} from '../../controlplane/src/governance/auth/scopes.js';
import type { BrowserRunTaskInput } from '../../controlplane/src/tasks/task-input.js';
import { requires } from '../support/capabilities.js';
import { createTestControlplane, type TestControlplane } from '../support/controlplane.js';
import { createPerTaskScriptModel } from '../support/per-task-script-model.js';
import { silentLogger } from '../support/silent-logger.js';
import { testLauncher } from '../support/test-launcher.js';
import { startUploadSite, UPLOAD_POINTS, type UploadSite } from '../support/upload-site.js';

const VIEWPORT = { width: 1280, height: 800 };
const isSettled = (promise: Promise<unknown>) =>
  Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    Promise.resolve(false),
  ]);
const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

function click(point: { x: number; y: number }): string {
  const divisors = modelDivisors('1.5', VIEWPORT);
  const x = Math.round((point.x / VIEWPORT.width) * divisors.width);
  const y = Math.round((point.y / VIEWPORT.height) * divisors.height);
  return `Thought: Next.\nAction: click(start_box='<|box_start|>(${x},${y})<|box_end|>')`;
}

describe('e2e: the upload-form trap in local mode (real Chromium)', requires('chromium'), () => {
  let site: UploadSite;
  let jail: LocalJailService;
  let controlplane: TestControlplane;
  let scratch = '';
  let uploadRoot = '';
  let allowed = '';
  const requests: string[] = [];
  const content = randomBytes(64 * 1024);

  before(async () => {
    site = await startUploadSite();
    scratch = mkdtempSync(join(tmpdir(), 'clawdie-e2e-uploads-'));
    uploadRoot = join(scratch, 'clone-uploads');
    allowed = join(scratch, 'allowed');
    mkdirSync(uploadRoot);
    mkdirSync(allowed);
    // As root the local browser runs as its own uid: it must be able to read its files here.
    chmodSync(scratch, 0o755);
    chmodSync(uploadRoot, 0o777);
    writeFileSync(join(allowed, 'note.txt'), content);
    writeFileSync(join(scratch, 'secret.txt'), 'not for the page');
    symlinkSync(join(scratch, 'secret.txt'), join(allowed, 'link.txt'));
    jail = await startLocalJailService({
      egressProxyUrl: null,
      launcher: testLauncher,
      env: { ...process.env, CLAWDIE_JAIL_UPLOAD_DIR: uploadRoot },
      logger: silentLogger,
    });
    const policyDir = join(scratch, 'policies');
    mkdirSync(policyDir);
    const host = new URL(site.url).host;
    for (const tenant of ['default', 'other', 'asks'])
      writeFileSync(
        join(policyDir, `${tenant}.yaml`),
        `tenant: ${tenant}\ndomains: { allow: ["${host}"] }\nmax_steps: 6\nfiles: { upload: allowed, upload_dirs: ["${allowed}"]${tenant === 'asks' ? ', upload_approval: needs_approval' : ''} }\n`,
      );
    const script = createPerTaskScriptModel([
      click(UPLOAD_POINTS.input),
      click(UPLOAD_POINTS.submit),
      "Thought: Sent.\nAction: finished(content='uploaded')",
    ]);
    controlplane = await createTestControlplane({
      browsers: 'config',
      model: {
        ...script,
        complete(request, signal, hooks) {
          requests.push(JSON.stringify(request.messages));
          return script.complete(request, signal, hooks);
        },
      },
      env: {
        CLAWDIE_JAIL_URL: jail.url,
        CLAWDIE_JAIL_TOKEN: jail.token,
        CLAWDIE_POLICY_DIR: policyDir,
        CLAWDIE_JAIL_VIEWPORT: `${VIEWPORT.width}x${VIEWPORT.height}`,
      },
    });
  });
  after(async () => {
    await controlplane?.close();
    await jail?.stop();
    await site?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  const input = (files: BrowserRunTaskInput['files']): BrowserRunTaskInput => ({
    instruction: 'Upload the note',
    start_url: `${site.url}/`,
    files,
  });
  const admit = (files: BrowserRunTaskInput['files'], principal: Principal = loopbackPrincipal) =>
    controlplane.tasks.admit(input(files), principal);
  /** The data of the audit rows of one type (of one task). */
  const audited = async (type: string, taskId?: string) =>
    (await controlplane.audit.list({ limit: 100, type })).flatMap((row) =>
      taskId === undefined || row.taskId === taskId ? [row.data] : [],
    );
  const refusals = async () =>
    (await audited('policy-decided')).flatMap((d) =>
      d.decision === 'deny' ? [`${d.reason}`] : [],
    );

  it('sets the provided file on the chooser the model opened: the server gets the same bytes', async () => {
    const plan = await admit([{ name: 'note.txt', path: join(allowed, 'note.txt') }]);
    const result = await (await controlplane.tasks.start(plan)).done;
    assert.equal(result.status, 'finished', JSON.stringify(result));
    assert.deepEqual(site.received, [{ sha256: sha256(content), bytes: content.length }]);
    const uploaded = await audited('file-uploaded', result.trace_id);
    assert.deepEqual(uploaded, [
      {
        name: 'note.txt',
        bytes: content.length,
        sha256: sha256(content),
        origin: site.url,
        step: 1,
      },
    ]);
    const told = requests.join('\n');
    assert.match(told, /Files provided for upload: \\"note.txt\\"/);
    assert.match(
      told,
      /The file \\"note.txt\\" \(65536 bytes\) was set on the page's file chooser/,
    );
    assert.ok(!told.includes(allowed), 'the model never sees a host path');
    assert.equal(result.verification?.verdict, 'verified', JSON.stringify(result.verification));
    assert.deepEqual(readdirSync(uploadRoot), [], 'the clone upload directory is gone');
  });

  const asks: Principal = { ...loopbackPrincipal, tenant: 'asks' };
  /** Runs the upload under `asks`; `chosenWhileAsked`: files set on the input while the card waits. */
  const heldRun = async (answer: 'approve' | 'deny') => {
    const plan = await admit([{ name: 'note.txt', path: join(allowed, 'note.txt') }], asks);
    const chosenBefore = site.chosen.length;
    const done = (await controlplane.tasks.start(plan)).done;
    let chosenWhileAsked: string[] | null = null;
    const answering = (async () => {
      while (chosenWhileAsked === null) {
        const pending = await controlplane.approvals.list({ status: 'pending', limit: 5 });
        if (pending.length > 0) {
          // The chooser opened during the click, well before now: a file set then has been reported.
          await sleep(300);
          chosenWhileAsked = site.chosen.slice(chosenBefore);
          for (const record of pending)
            await controlplane.approvals.answer(record.id, answer, 'test supervisor');
        }
        await Promise.race([done, sleep(20)]);
        if (chosenWhileAsked === null && (await isSettled(done))) break;
      }
    })();
    const result = await done;
    await answering;
    const approvals = (await controlplane.approvals.list({ limit: 100 })).filter(
      (approval) => approval.taskId === result.trace_id,
    );
    return {
      result,
      approvals,
      audited: (type: 'file-uploaded' | 'upload-refused') => audited(type, result.trace_id),
      chosenWhileAsked,
      chosen: site.chosen.slice(chosenBefore),
    };
  };

  it('holds the chooser for a supervisor under upload_approval: approved, the file arrives', async () => {
    const before = site.received.length;
    const { result, approvals, audited, chosenWhileAsked, chosen } = await heldRun('approve');
    assert.equal(result.status, 'finished', JSON.stringify(result));
    assert.deepEqual(chosenWhileAsked, [], 'no file is set before the approval');
    assert.deepEqual(chosen, ['note.txt'], 'set once approved');
    assert.deepEqual(
      approvals.map((approval) => [approval.kind, approval.status]),
      [['file_upload', 'approved']],
    );
    assert.match(
      approvals[0]?.reason ?? '',
      /the page at http:\/\/127\.0\.0\.1:\d+ asks for the file "note\.txt" \(65536 bytes\)/,
    );
    const sent = { sha256: sha256(content), bytes: content.length };
    assert.deepEqual(approvals[0]?.detail.file, { name: 'note.txt', ...sent });
    assert.deepEqual(site.received.slice(before), [sent]);
    assert.equal((await audited('file-uploaded')).length, 1);
    assert.deepEqual(await audited('upload-refused'), []);
  });

  it('sends nothing when the supervisor denies the held chooser, and ends the task', async () => {
    const before = site.received.length;
    const { result, approvals, audited, chosenWhileAsked, chosen } = await heldRun('deny');
    assert.equal(result.status, 'error', JSON.stringify(result));
    assert.deepEqual(chosenWhileAsked, [], 'no file is set before the answer');
    assert.deepEqual(chosen, [], 'nor after the denial');
    assert.equal(result.error?.code, 'APPROVAL_DENIED');
    assert.equal(result.step_count, 1, 'no step after the refusal');
    assert.deepEqual(
      approvals.map((approval) => [approval.kind, approval.status]),
      [['file_upload', 'denied']],
    );
    assert.equal(site.received.length, before, 'the site received no file');
    assert.deepEqual(await audited('file-uploaded'), []);
    assert.deepEqual(
      (await audited('upload-refused')).map((data) => [data.name, data.why, data.origin]),
      [['note.txt', 'a supervisor did not approve it', site.url]],
    );
    assert.deepEqual(readdirSync(uploadRoot), [], 'the clone upload directory is gone');
  });

  it('cancels a chooser when the task provides no file, and says so', async () => {
    const before = site.received.length;
    const plan = await controlplane.tasks.admit(
      { instruction: 'Upload the note', start_url: `${site.url}/` },
      loopbackPrincipal,
    );
    const result = await (await controlplane.tasks.start(plan)).done;
    assert.equal(result.status, 'finished', JSON.stringify(result));
    assert.equal(site.received.length, before, 'nothing was sent');
    const cancelled = (await audited('upload-cancelled', result.trace_id)).map((data) => [
      data.origin,
      data.step,
    ]);
    assert.deepEqual(cancelled, [[site.url, 1]]);
    assert.match(requests.join('\n'), /A file chooser opened and was cancelled/);
  });

  it('refuses a path outside the allowlist, by .. or by a symlink out of it, at admission', async () => {
    const outside = [
      join(scratch, 'secret.txt'),
      `${allowed}/../secret.txt`,
      join(allowed, 'link.txt'),
      'note.txt',
    ];
    for (const path of outside)
      await assert.rejects(
        admit([{ name: 'x.txt', path }]),
        (error: Error & { code?: string; status?: number }) =>
          error.code === 'POLICY_DENIED' &&
          error.status === 400 &&
          /files\[0\]/.test(error.message),
        path,
      );
    assert.ok(
      (await refusals()).filter((reason) => reason.startsWith('files[0] (x.txt)')).length >= 4,
    );
  });

  it("admits an artifact of the tenant's own task and refuses another tenant's as missing", async () => {
    const artifactOf = async (tenant: string) => {
      const id = randomUUID();
      await controlplane.repository.createTask({
        tenant,
        actor: null,
        id,
        instruction: 'download',
        startUrl: null,
        maxSteps: 1,
        modelName: 'test',
        coordinateMode: 'uitars-1.5',
        createdAt: Date.now(),
      });
      const dir = join(controlplane.dataDir, 'traces', id, 'artifacts');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'report.txt'), 'the report');
      const stored = [{ name: 'report.txt', path: join(dir, 'report.txt') }];
      writeFileSync(
        join(controlplane.dataDir, 'traces', id, 'artifacts.json'),
        JSON.stringify(stored),
      );
      return id;
    };
    const own = await admit([
      { name: 'report.txt', artifact_of_task: await artifactOf('default') },
    ]);
    assert.deepEqual(
      own.uploads?.map((file) => [file.name, file.bytes]),
      [['report.txt', 10]],
    );
    const foreign = await artifactOf('other');
    await assert.rejects(
      admit([{ name: 'report.txt', artifact_of_task: foreign }]),
      new RegExp(`no artifact report.txt of task ${foreign}`),
    );
  });
});
