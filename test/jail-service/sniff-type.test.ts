import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sniffKind } from '../../jail-service/src/downloads/sniff-type.js';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(
    parts.map((part) =>
      typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part),
    ),
  );
const kind = (data: Buffer) => sniffKind(data, data.subarray(-1024), data.length);

describe('sniffKind: the type from the bytes, never the name or headers', () => {
  it('knows the magic numbers', () => {
    assert.equal(kind(bytes('%PDF-1.7\n')), 'pdf');
    assert.equal(kind(bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])), 'png');
    assert.equal(kind(bytes([0xff, 0xd8, 0xff, 0xe0])), 'jpeg');
    assert.equal(kind(bytes('GIF89a', [0, 1])), 'gif');
    assert.equal(kind(bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 ')), 'webp');
    assert.equal(kind(bytes('MZ', [0x90, 0, 3])), 'binary');
  });
  it('tells Office documents from plain ZIP files by their part names', () => {
    const zip = (...names: string[]) => bytes([0x50, 0x4b, 0x03, 0x04], names.join('\0'));
    assert.equal(kind(zip('[Content_Types].xml', 'word/document.xml')), 'docx');
    assert.equal(kind(zip('[Content_Types].xml', 'xl/workbook.xml')), 'xlsx');
    assert.equal(kind(zip('photos/a.jpg')), 'zip');
  });
  it('tells JSON, CSV and text apart, and binary from text', () => {
    assert.equal(kind(bytes('{"a": [1, 2]}\n')), 'json');
    assert.equal(kind(bytes('{"a": [1, 2]')), 'text', 'not JSON when it does not parse');
    assert.equal(kind(bytes('a,b,c\n1,2,3\n4,5,6\n')), 'csv');
    assert.equal(kind(bytes('a;b\n1;2\n')), 'csv');
    assert.equal(kind(bytes('Dear customer,\nthank you.\n')), 'text');
    assert.equal(kind(Buffer.from('Grüße aus Köln\n', 'utf8')), 'text');
    assert.equal(kind(bytes('text\0with a NUL')), 'binary');
    assert.equal(kind(bytes([0xc3, 0x28, 0x41])), 'binary', 'invalid UTF-8');
  });
});
