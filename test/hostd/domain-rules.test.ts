import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CreateCloneRequestSchema } from '../../hostd/src/api/schema.js';
import { compileAllowlist } from '../../hostd/src/proxy/domain-rules.js';

describe('egress allowlist: *', () => {
  it('lets any host through (the policy gate decides), but still no malformed host', () => {
    const any = compileAllowlist(['*']);
    assert.equal(any('example.com', 443), true);
    assert.equal(any('127.0.0.2', 80), true);
    assert.equal(any('example.com', 8700), false);
    assert.equal(any('', 443), false);
    assert.equal(any('a/b', 443), false);
  });

  it('is accepted by the create request, while patterns such as *x or a.* are refused', () => {
    const parse = (domains: string[]) =>
      CreateCloneRequestSchema.safeParse({ taskId: 't', allowedDomains: domains }).success;
    assert.equal(parse(['*']), true);
    assert.equal(parse(['*.example.org', '127.0.0.1']), true);
    assert.equal(parse(['example.org:8443', '*.example.org:8080', '*:8443']), true);
    assert.equal(parse(['example.org:0']), false);
    assert.equal(parse(['example.org:65536']), false);
    assert.equal(parse(['example.org:']), false);
    assert.equal(parse(['*x']), false);
    assert.equal(parse(['example.*']), false);
    assert.equal(parse(['**']), false);
  });
});
