import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { downloadNameSchema } from '@clawdie/kit/jail-api';
import { downloadName, sourceUrl } from '../../jail-service/src/downloads/download-names.js';

describe('download names are labels, never paths', () => {
  it('keeps the last path component without controls, bounded and unique', () => {
    const none = new Set<string>();
    assert.equal(downloadName('../../etc/passwd', none), 'passwd');
    assert.equal(downloadName('..\\..\\boot.ini', none), 'boot.ini');
    assert.equal(downloadName('re\u0000port\u001b.pdf', none), 'report.pdf');
    assert.equal(downloadName('..', none), 'download');
    assert.equal(downloadName('', none), 'download');
    assert.equal(downloadName('x'.repeat(500), none).length, 120);
    assert.equal(downloadName('a.pdf', new Set(['a.pdf', 'a (2).pdf'])), 'a (3).pdf');
    for (const name of ['passwd', 'a (3).pdf', 'x'.repeat(120)])
      assert.ok(downloadNameSchema.safeParse(name).success, name);
  });
  it('the contract refuses what a lying clone could send', () => {
    for (const name of ['../x', 'a/b', 'a\\b', '..', '.', 'a\u0007b', 'x'.repeat(121)])
      assert.equal(downloadNameSchema.safeParse(name).success, false, JSON.stringify(name));
  });
  it('cuts data: and blob: URLs short', () => {
    assert.equal(sourceUrl(`data:text/plain,${'a'.repeat(5000)}`).length, 200);
    assert.equal(sourceUrl(`https://x/${'a'.repeat(5000)}`).length, 2048);
  });
});
