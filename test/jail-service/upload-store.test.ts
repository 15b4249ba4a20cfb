// The jail-service's upload store: files stored by name in a per-task directory, each chooser
// answered with the file fitting its `accept` (the first not used yet, else the first again),
// cancelled with none provided, every chooser listed; clear deletes the directory.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createUploadStore, fitsAccept } from '../../jail-service/src/uploads/upload-store.js';
import { silentLogger } from '../support/silent-logger.js';

const body = (text: string) => new Blob([text]).stream();
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('upload store', () => {
  const root = mkdtempSync(join(tmpdir(), 'clawdie-upload-store-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('matches accept by extension, MIME type and wildcard', () => {
    assert.ok(fitsAccept('cv.pdf', '.pdf,.docx'));
    assert.ok(fitsAccept('photo.JPG', 'image/*'));
    assert.ok(fitsAccept('notes.txt', 'text/plain'));
    assert.ok(fitsAccept('anything.bin', ''));
    assert.ok(!fitsAccept('cv.pdf', 'image/*'));
  });

  it('answers choosers by accept, then the first unused, and cancels with none provided', async () => {
    const store = createUploadStore({ root, logger: silentLogger, now: () => 7 });
    const origin = 'http://127.0.0.1:1';
    assert.equal(store.choose({ accept: '', origin }), null, 'nothing provided: cancelled');
    const stored = await store.add('a.txt', body('first'), 100);
    assert.deepEqual(stored, { name: 'a.txt', bytes: 5, sha256: sha256('first') });
    await store.add('b.png', body('second'), 100);
    const image = store.choose({ accept: 'image/*', origin });
    assert.equal(image?.file.name, 'b.png');
    assert.equal(readFileSync(image?.path ?? '', 'utf8'), 'second');
    assert.equal(store.choose({ accept: '', origin })?.file.name, 'a.txt', 'the first unused');
    assert.equal(store.choose({ accept: '', origin })?.file.name, 'a.txt', 'all used: the first');
    assert.deepEqual(
      store.list().events.map((event) => [event.seq, event.outcome, event.file?.name ?? null]),
      [
        [1, 'cancelled', null],
        [2, 'uploaded', 'b.png'],
        [3, 'uploaded', 'a.txt'],
        [4, 'uploaded', 'a.txt'],
      ],
    );
    await assert.rejects(store.add('big.bin', body('0123456789'), 4), /over 4 bytes/);
    assert.deepEqual(
      store.list().files.map((file) => file.name),
      ['a.txt', 'b.png'],
    );
    await store.clear();
    assert.deepEqual(readdirSync(root), [], 'the per-task directory is gone');
    assert.deepEqual(store.list(), { files: [], events: [] });
  });
});
