import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  loadPolicies,
  parsePolicy,
} from '../../../../controlplane/src/governance/policy/load-policies.js';

const policiesDir = new URL('../../../../policies/', import.meta.url).pathname;
const minimal = 'tenant: default\ndomains:\n  allow: ["*"]\nmax_steps: 10\n';

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'clawdie-policies-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('policy files', () => {
  it('parses every shipped policy, examples included', () => {
    const files = ['', 'examples/'].flatMap((sub) =>
      readdirSync(join(policiesDir, sub))
        .filter((name) => name.endsWith('.yaml'))
        .map((name) => join(policiesDir, sub, name)),
    );
    assert.ok(files.length >= 2);
    for (const file of files) assert.ok(parsePolicy(readFileSync(file, 'utf8'), file).tenant);
    const set = loadPolicies(policiesDir);
    assert.equal(set.forTenant('anyone').tenant, 'default');
  });

  it('fills defaults for optional sections', () => {
    const policy = parsePolicy(minimal, 'default.yaml');
    assert.equal(policy.domains.outside, 'deny');
    assert.equal(policy.recording, 'allowed');
    assert.deepEqual(policy.credentials, { modes: ['none'], secrets: [], sessions: [] });
    assert.equal(policy.approvals.timeout_s, 300);
  });

  it('names the file and the field of every problem', () => {
    const bad =
      'tenant: acme\ndomains:\n  allow: ["exa mple.org"]\nmax_steps: 0\ncolour: red\napprovals:\n  actions:\n    - { action: type, text: "(", decision: maybe, reason: x }\n';
    assert.throws(
      () => parsePolicy(bad, '/p/acme.yaml'),
      (error: Error) => {
        assert.match(error.message, /^\/p\/acme\.yaml: \(root\): Unrecognized key: "colour"/m);
        assert.match(
          error.message,
          /^\/p\/acme\.yaml: domains\.allow\.0: must be a host such as example\.org/m,
        );
        assert.match(error.message, /^\/p\/acme\.yaml: max_steps: Too small/m);
        assert.match(
          error.message,
          /^\/p\/acme\.yaml: approvals\.actions\.0\.text: must be a valid regular expression/m,
        );
        assert.match(error.message, /^\/p\/acme\.yaml: approvals\.actions\.0\.decision: /m);
        return true;
      },
    );
  });

  it('reports YAML syntax errors, a tenant that does not match the file name, and a missing default', () => {
    assert.throws(
      () => parsePolicy('tenant: [', 'x.yaml'),
      /x\.yaml: YAML error: .*line 1, column 10/,
    );
    assert.throws(
      () => parsePolicy(minimal, '/p/acme.yaml'),
      /\/p\/acme\.yaml: tenant: is "default" but the file is named for "acme"/,
    );
    assert.throws(
      () => loadPolicies(dirWith({ 'acme.yaml': minimal.replace('default', 'acme') })),
      /default\.yaml: missing: a default policy is required/,
    );
    assert.throws(
      () => loadPolicies('/nonexistent/policies'),
      /CLAWDIE_POLICY_DIR=\/nonexistent\/policies cannot be read/,
    );
  });

  it('maps tenants to their own file and others to default', () => {
    const set = loadPolicies(
      dirWith({
        'default.yaml': minimal,
        'acme.yml': minimal.replace('default', 'acme').replace('10', '5'),
      }),
    );
    assert.equal(set.forTenant('acme').max_steps, 5);
    assert.equal(set.forTenant('globex').tenant, 'default');
    assert.deepEqual(set.tenants().sort(), ['acme', 'default']);
  });
});
