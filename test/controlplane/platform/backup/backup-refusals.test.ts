// Bad inputs to `clawdie backup` / `clawdie restore`: each is refused before anything is written
// (no target, no `.partial-*` beside it), and what was there stays as it was.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseCommand } from '../../../../controlplane/src/ingress/cli/args.js';
import { MANIFEST_NAME } from '../../../../controlplane/src/platform/backup/backup-manifest.js';
import { createBackup } from '../../../../controlplane/src/platform/backup/create-backup.js';
import { restoreBackup } from '../../../../controlplane/src/platform/backup/restore-backup.js';
import { createArtifactFiles } from '../../../../controlplane/src/platform/store/artifact-files.js';
import { runClawdie } from '../../../support/clawdie-cli.js';
import { testConfig } from '../../../support/controlplane.js';
import { startLiveServer } from './backup-fixture.js';

const scratch = mkdtempSync(join(tmpdir(), 'clawdie-backup-bad-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
const quiet = () => undefined;
let sourceDir = '';
let good = '';

/** A copy of the good backup to spoil. */
function copyOfBackup(name: string): string {
  const copy = join(scratch, name);
  for (const file of walk(good)) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    writeFileSync(join(copy, file), readFileSync(join(good, file)));
  }
  return copy;
}

function walk(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory() ? walk(dir, path) : [path];
  });
}

const editManifest = (dir: string, edit: (manifest: any) => void) => {
  const manifest = JSON.parse(readFileSync(join(dir, MANIFEST_NAME), 'utf8'));
  edit(manifest);
  writeFileSync(join(dir, MANIFEST_NAME), JSON.stringify(manifest));
};

/** Nothing named like `target` (nor its `.partial-*`) exists in its parent. */
function assertNothingWritten(target: string) {
  const name = target.split('/').pop() as string;
  const left = readdirSync(dirname(target)).filter((entry) => entry.includes(name));
  assert.deepEqual(left, [], `left behind: ${left.join(', ')}`);
}

const restoreInto = (source: string, dataDir: string) =>
  restoreBackup({ config: testConfig({ CLAWDIE_DATA_DIR: dataDir }), source, onProgress: quiet });

before(async () => {
  sourceDir = join(scratch, 'source');
  const live = await startLiveServer({ replyMs: 0, dataDir: sourceDir });
  await Promise.all((await live.start(3)).map((task) => task.done));
  await live.saveSessionAndSecret('shop');
  good = join(scratch, 'good');
  await createBackup({ config: live.controlplane.config, destination: good, onProgress: quiet });
  await live.close();
});

describe('clawdie restore refuses', () => {
  it('a backup whose database digest differs from the manifest, writing nothing', async () => {
    const spoiled = copyOfBackup('digest');
    editManifest(spoiled, (manifest) => {
      const entry = manifest.files.find((file: any) => file.role === 'database');
      entry.sha256 = entry.sha256.replace(/^./, (c: string) => (c === '0' ? '1' : '0'));
    });
    const target = join(scratch, 'restored-digest');
    await assert.rejects(restoreInto(spoiled, target), { code: 'BACKUP_DIGEST_MISMATCH' });
    assertNothingWritten(target);
  });

  it('a backup with a damaged trace file, writing nothing', async () => {
    const spoiled = copyOfBackup('damaged');
    const trace = walk(spoiled).find((file) => file.startsWith('traces/')) as string;
    const bytes = readFileSync(join(spoiled, trace));
    const middle = bytes.length >> 1;
    bytes[middle] = (bytes[middle] ?? 0) ^ 0xff;
    writeFileSync(join(spoiled, trace), bytes);
    const target = join(scratch, 'restored-damaged');
    await assert.rejects(restoreInto(spoiled, target), (error: Error & { code: string }) => {
      assert.equal(error.code, 'BACKUP_DIGEST_MISMATCH');
      assert.match(error.message, new RegExp(trace));
      return true;
    });
    assertNothingWritten(target);
  });

  it('a directory without a manifest (an unfinished backup) and a manifest naming ../', async () => {
    const partial = copyOfBackup('partial');
    rmSync(join(partial, MANIFEST_NAME));
    await assert.rejects(restoreInto(partial, join(scratch, 'r1')), { code: 'BACKUP_INVALID' });
    const escaping = copyOfBackup('escaping');
    editManifest(escaping, (manifest) => {
      manifest.files[0].path = '../../etc/passwd';
    });
    await assert.rejects(restoreInto(escaping, join(scratch, 'r2')), { code: 'BACKUP_INVALID' });
    assertNothingWritten(join(scratch, 'r1'));
    assertNothingWritten(join(scratch, 'r2'));
  });

  it('a backup from a build with more schema migrations than this one', async () => {
    const newer = copyOfBackup('newer');
    editManifest(newer, (manifest) => {
      manifest.versions.schema_migrations = 999;
    });
    await assert.rejects(restoreInto(newer, join(scratch, 'r3')), { code: 'BACKUP_TOO_NEW' });
  });

  it('a non-empty target, leaving its content alone', async () => {
    const target = join(scratch, 'occupied');
    mkdirSync(target);
    writeFileSync(join(target, 'notes.txt'), 'mine');
    await assert.rejects(restoreInto(good, target), { code: 'BACKUP_TARGET_NOT_EMPTY' });
    assert.deepEqual(readdirSync(target), ['notes.txt']);
    assert.equal(readdirSync(scratch).filter((entry) => entry.includes('.partial-')).length, 0);
  });

  it('the data dir of a running server, naming it', async (t) => {
    const live = await startLiveServer();
    t.after(() => live.close());
    await assert.rejects(restoreInto(good, live.controlplane.dataDir), {
      code: 'DATA_DIR_IN_USE',
    });
  });

  it('puts the keys where CLAWDIE_AUDIT_KEY_FILE / CLAWDIE_SECRETS_KEY_FILE say, never over one', async () => {
    const keys = join(scratch, 'elsewhere');
    const env = {
      CLAWDIE_DATA_DIR: join(scratch, 'keys-outside'),
      CLAWDIE_AUDIT_KEY_FILE: join(keys, 'audit.key'),
      CLAWDIE_SECRETS_KEY_FILE: join(keys, 'vault.key'),
    };
    const config = testConfig(env);
    const result = await restoreBackup({ config, source: good, onProgress: quiet });
    assert.equal(result.audit?.ok, true);
    assert.deepEqual(readdirSync(keys).sort(), ['audit.key', 'audit.key.head', 'vault.key']);
    assert.ok(!readdirSync(env.CLAWDIE_DATA_DIR).includes('keys'));
    const again = testConfig({ ...env, CLAWDIE_DATA_DIR: join(scratch, 'keys-outside-2') });
    await assert.rejects(restoreBackup({ config: again, source: good, onProgress: quiet }), {
      code: 'BACKUP_TARGET_NOT_EMPTY',
    });
    assertNothingWritten(join(scratch, 'keys-outside-2'));
  });

  it('restores into an existing empty directory', async () => {
    const target = join(scratch, 'empty');
    mkdirSync(target);
    const result = await restoreInto(good, target);
    assert.equal(result.audit?.ok, true);
    assert.ok(readdirSync(target).includes('clawdie.db'));
  });
});

describe('clawdie backup refuses', () => {
  it('a non-empty destination, leaving it alone', async () => {
    const config = testConfig({ CLAWDIE_DATA_DIR: sourceDir });
    await assert.rejects(createBackup({ config, destination: good, onProgress: quiet }), {
      code: 'BACKUP_TARGET_NOT_EMPTY',
    });
    assert.ok(readdirSync(good).includes(MANIFEST_NAME));
  });

  it('leaves no directory behind when a copy fails half-way', async () => {
    const config = testConfig({ CLAWDIE_DATA_DIR: sourceDir });
    const traces = join(sourceDir, 'traces');
    const task = readdirSync(traces)[0] as string;
    const shot = join(traces, task, 'final.jpg');
    const saved = readFileSync(shot);
    rmSync(shot);
    mkdirSync(shot); // unreadable as a file: the copy fails mid-way
    const destination = join(scratch, 'half');
    try {
      await assert.rejects(createBackup({ config, destination, onProgress: quiet }));
    } finally {
      rmSync(shot, { recursive: true });
      writeFileSync(shot, saved);
    }
    assertNothingWritten(destination);
  });
});

describe('clawdie backup copies', () => {
  it('a finalised recording.mp4 of a task, never a recording still being written', async () => {
    const config = testConfig({ CLAWDIE_DATA_DIR: sourceDir });
    const task = readdirSync(join(sourceDir, 'traces'))[0] as string;
    writeFileSync(join(sourceDir, 'traces', task, 'recording.mp4'), 'finished video');
    writeFileSync(join(sourceDir, 'traces', task, 'recording.partial.mp4'), 'half a video');
    const destination = join(scratch, 'with-recording');
    try {
      const { manifest } = await createBackup({ config, destination, onProgress: quiet });
      const paths = manifest.files.map((file) => file.path);
      assert.ok(paths.includes(`traces/${task}/recording.mp4`));
      assert.ok(!paths.some((path) => path.includes('partial')));
    } finally {
      rmSync(join(sourceDir, 'traces', task, 'recording.mp4'));
      rmSync(join(sourceDir, 'traces', task, 'recording.partial.mp4'));
    }
  });
});

describe('clawdie backup keeps downloads', () => {
  it("a task's artifacts and their manifest, restored where the restored data dir serves them", async () => {
    const config = testConfig({ CLAWDIE_DATA_DIR: sourceDir });
    const task = readdirSync(join(sourceDir, 'traces'))[0] as string;
    const dir = join(sourceDir, 'traces', task);
    mkdirSync(join(dir, 'artifacts'), { recursive: true });
    writeFileSync(join(dir, 'artifacts', 'invoice.pdf'), '%PDF-1.7 invoice');
    const stored = {
      name: 'invoice.pdf',
      bytes: 16,
      sha256: 'a'.repeat(64),
      mime: 'application/pdf',
      path: join(dir, 'artifacts', 'invoice.pdf'),
      source_url: 'https://shop.example/invoice',
      step: 1,
      stored_at: 1,
    };
    writeFileSync(join(dir, 'artifacts.json'), JSON.stringify([stored]));
    const destination = join(scratch, 'with-artifacts');
    const restored = join(scratch, 'restored-artifacts');
    try {
      const { manifest } = await createBackup({ config, destination, onProgress: quiet });
      const paths = manifest.files.map((file) => file.path);
      assert.ok(paths.includes(`traces/${task}/artifacts.json`), paths.join('\n'));
      assert.ok(paths.includes(`traces/${task}/artifacts/invoice.pdf`));
      await restoreBackup({
        source: destination,
        config: testConfig({ CLAWDIE_DATA_DIR: restored }),
        onProgress: quiet,
      });
      const files = createArtifactFiles(restored);
      const [artifact] = await files.list(task);
      assert.equal(artifact?.path, join(restored, 'traces', task, 'artifacts', 'invoice.pdf'));
      assert.equal(readFileSync(artifact?.path ?? '', 'utf8'), '%PDF-1.7 invoice');
    } finally {
      rmSync(join(dir, 'artifacts'), { recursive: true });
      rmSync(join(dir, 'artifacts.json'));
    }
  });
});

describe('the CLI', () => {
  it('parses backup and restore, and exits 2 naming a refusal', async () => {
    assert.deepEqual(parseCommand(['backup', '/b', '--data-dir', '/d']), {
      name: 'backup',
      destination: '/b',
      dataDir: '/d',
    });
    assert.deepEqual(parseCommand(['restore', '/b']), {
      name: 'restore',
      source: '/b',
      dataDir: undefined,
    });
    assert.throws(() => parseCommand(['backup']), /exactly one DEST/);
    assert.throws(() => parseCommand(['restore', 'a', 'b']), /exactly one BACKUP/);
    const refused = await runClawdie(['restore', good], { CLAWDIE_DATA_DIR: sourceDir });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /BACKUP_TARGET_NOT_EMPTY: the data directory .* is not empty/);
  });
});
