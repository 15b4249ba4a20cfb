// Every CLAWDIE_* variable a component reads is named in README.md or docs/*.md: an operator
// finds each knob by its name. The readers are each component's config*.ts (the one place per
// component that parses the environment); a name only mentioned in an error message counts too.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repositoryRoot } from '../support/repository-root.js';

const root = repositoryRoot;
const COMPONENTS = ['controlplane', 'jail-service', 'hostd', 'setup'];

function configFiles(): string[] {
  return COMPONENTS.flatMap((component) =>
    readdirSync(join(root, component, 'src'))
      .filter((name) => /^config.*\.ts$/.test(name))
      .map((name) => join(root, component, 'src', name)),
  );
}

function variablesIn(text: string): Set<string> {
  return new Set(text.match(/\bCLAWDIE_[A-Z0-9_]*[A-Z0-9]\b/g) ?? []);
}

describe('configuration variables are documented', () => {
  it('finds the config readers of every component', () => {
    const files = configFiles();
    for (const component of COMPONENTS)
      assert.ok(
        files.some((file) => file.includes(`/${component}/src/`)),
        `${component} has no config*.ts`,
      );
  });

  it('names every variable a config reader reads in README.md or docs/', () => {
    const docs = [
      readFileSync(join(root, 'README.md'), 'utf8'),
      ...readdirSync(join(root, 'docs'))
        .filter((name) => name.endsWith('.md'))
        .map((name) => readFileSync(join(root, 'docs', name), 'utf8')),
    ].join('\n');
    const documented = variablesIn(docs);
    const read = new Set(
      configFiles().flatMap((file) => [...variablesIn(readFileSync(file, 'utf8'))]),
    );
    assert.ok(read.size > 50, `only ${read.size} variables found: is the pattern right?`);
    const missing = [...read].filter((name) => !documented.has(name)).sort();
    assert.deepEqual(missing, [], `not named in README.md or docs/*.md: ${missing.join(', ')}`);
  });
});
