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
    const set: string[] = [];
    const setFile = async (path: string) => {
      set.push(readFileSync(path, 'utf8'));
    };
    await store.answer({ accept: '', origin }, setFile);
    assert.deepEqual(set, [], 'nothing provided: cancelled');
    const stored = await store.add('a.txt', body('first'), 100);
    assert.deepEqual(stored, { name: 'a.txt', bytes: 5, sha256: sha256('first') });
    await store.add('b.png', body('second'), 100);
    await store.answer({ accept: 'image/*', origin }, setFile);
    await store.answer({ accept: '', origin }, setFile);
    await store.answer({ accept: '', origin }, setFile);
    assert.deepEqual(set, ['second', 'first', 'first'], 'by accept, the first unused, the first');
    await store.answer({ accept: '', origin }, () => Promise.reject(new Error('node gone')));
    assert.deepEqual(
      store.list().events.map((event) => [event.seq, event.outcome, event.file?.name ?? null]),
      [
        [1, 'cancelled', null],
        [2, 'uploaded', 'b.png'],
        [3, 'uploaded', 'a.txt'],
        [4, 'uploaded', 'a.txt'],
        [5, 'failed', 'a.txt'],
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

  it('holds a chooser for a file sent with hold until it is decided: set, or refused', async () => {
    const store = createUploadStore({ root, logger: silentLogger });
    const origin = 'http://127.0.0.1:2';
    const set: string[] = [];
    const setFile = async (path: string) => {
      set.push(readFileSync(path, 'utf8'));
    };
    await store.add('cv.pdf', body('the cv'), 100, { hold: true });
    await store.answer({ accept: '.pdf', origin }, setFile);
    await store.answer({ accept: '.pdf', origin }, setFile);
    assert.deepEqual(set, [], 'nothing is set before a decision');
    assert.deepEqual(
      store.list().events.map((event) => [event.outcome, event.file?.name]),
      [
        ['held', 'cv.pdf'],
        ['held', 'cv.pdf'],
      ],
    );
    const approved = await store.decide(1, 'set');
    assert.equal(approved.outcome, 'uploaded');
    assert.deepEqual(set, ['the cv']);
    const refused = await store.decide(2, 'refuse');
    assert.equal(refused.outcome, 'refused');
    assert.deepEqual(set, ['the cv'], 'a refused chooser gets nothing');
    await assert.rejects(store.decide(2, 'set'), /file chooser 2 is refused, not held/);
    await assert.rejects(store.decide(9, 'set'), /no file chooser 9/);
    await store.clear();
  });
});
