import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CreateCloneRequestSchema } from '../../hostd/src/api/schema.js';
import { compileAllowlist } from '../../hostd/src/proxy/domain-rules.js';

describe('egress allowlist: *', () => {
  it('lets any host through (the policy gate decides), but still no malformed host', () => {
    const any = compileAllowlist(['*']);
    assert.equal(any('example.com'), true);
    assert.equal(any('127.0.0.2'), true);
    assert.equal(any(''), false);
    assert.equal(any('a/b'), false);
  });

  it('is accepted by the create request, while patterns such as *x or a.* are refused', () => {
    const parse = (domains: string[]) =>
      CreateCloneRequestSchema.safeParse({ taskId: 't', allowedDomains: domains }).success;
    assert.equal(parse(['*']), true);
    assert.equal(parse(['*.example.org', '127.0.0.1']), true);
    assert.equal(parse(['*x']), false);
    assert.equal(parse(['example.*']), false);
    assert.equal(parse(['**']), false);
  });
});
