// The docs' tables and lists of the jail-service's tools and actions are generated from their
// declarations (`npm run docs:tools`, test/support/tool-docs.ts): a committed section that differs
// from what the declarations say now fails here, naming the doc and the section.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  DOC_FILES,
  generatedSections,
  sectionsOf,
  withGeneratedSections,
} from '../support/tool-docs.js';

const generated = generatedSections();
const docs = DOC_FILES.map((file) => ({ file, text: readFileSync(file, 'utf8') }));

describe('generated tool docs', () => {
  for (const { file, text } of docs) {
    it(`${file}: every generated section is what npm run docs:tools writes`, () => {
      const sections = sectionsOf(text);
      assert.ok(sections.length > 0, `${file} has no generated section`);
      for (const { id, content } of sections) {
        assert.ok(generated.has(id), `${file}: no generator for the section "${id}"`);
        assert.equal(content, generated.get(id), `${file}, section ${id}: run npm run docs:tools`);
      }
    });
  }

  it('every generated section appears in a doc', () => {
    const used = new Set(docs.flatMap(({ text }) => sectionsOf(text).map(({ id }) => id)));
    assert.deepEqual(
      [...generated.keys()].filter((id) => !used.has(id)),
      [],
    );
  });

  it('rewrites a stale section in place and refuses an unknown one', () => {
    const sections = new Map([['list', '`a`, `b`']]);
    const stale = 'not for <!-- generated:list -->`a`<!-- /generated:list --> (see x)';
    assert.equal(
      withGeneratedSections(stale, sections),
      'not for <!-- generated:list -->`a`, `b`<!-- /generated:list --> (see x)',
    );
    assert.throws(
      () => withGeneratedSections('<!-- generated:nope -->x<!-- /generated:nope -->', sections),
      /no generator for the section "nope"/,
    );
  });
});
