// The audit log's safety net: whatever a caller passes, a stored row holds bounded fields (long
// text as prefix + length + SHA-256), and the chain still verifies.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { createAuditLog } from '../../../../controlplane/src/governance/audit/audit-log.js';
import {
  AUDIT_DATA_MAX_BYTES,
  AUDIT_FIELD_MAX_BYTES,
  boundText,
} from '../../../../controlplane/src/governance/audit/bounded-fields.js';
import { createAuditRepository } from '../../../../controlplane/src/platform/store/audit-repository.js';
import { openDatabase } from '../../../../controlplane/src/platform/store/database.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('bounded audit fields', () => {
  it('keeps short text and turns long text into prefix, length and digest within the cap', () => {
    assert.equal(boundText('/takeover/task-1/open'), '/takeover/task-1/open');
    const long = `/takeover/${'A'.repeat(8192)}/open`;
    const bounded = boundText(long, 200);
    assert.ok(Buffer.byteLength(bounded) <= 200);
    assert.ok(bounded.startsWith('/takeover/AAAA'));
    assert.ok(bounded.endsWith(`…[${Buffer.byteLength(long)} B sha256:${sha256(long)}]`));
    const emoji = '😀'.repeat(300);
    const cut = boundText(emoji, 200);
    assert.ok(Buffer.byteLength(cut) <= 200);
    assert.doesNotMatch(cut, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])/, 'no half surrogate pair');
  });

  it('stores every field of an appended row bounded, and the chain verifies', async () => {
    const database = openDatabase(':memory:');
    const audit = createAuditLog(createAuditRepository(database.db), { now: () => 1 });
    const huge = 'z'.repeat(100_000);
    const row = await audit.append({
      type: 'takeover-refused',
      actor: huge,
      taskId: huge,
      data: { path: huge, nested: { list: [huge, 1, null] }, [huge]: true },
    });
    assert.ok(Buffer.byteLength(row.actor) <= 200);
    assert.ok(Buffer.byteLength(row.taskId ?? '') <= 200);
    assert.ok(Buffer.byteLength(String(row.data.path)) <= AUDIT_FIELD_MAX_BYTES);
    const nested = row.data.nested as { list: unknown[] };
    assert.ok(Buffer.byteLength(String(nested.list[0])) <= AUDIT_FIELD_MAX_BYTES);
    assert.deepEqual(nested.list.slice(1), [1, null]);
    assert.ok(Object.keys(row.data).every((key) => Buffer.byteLength(key) <= 200));
    assert.match(String(row.data.path), new RegExp(`sha256:${sha256(huge)}\\]$`));

    const wide = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, huge]));
    const truncated = await audit.append({ type: 'auth-failed', actor: 'anonymous', data: wide });
    assert.equal(truncated.data.truncated, true);
    assert.ok((truncated.data.bytes as number) > AUDIT_DATA_MAX_BYTES);
    assert.equal((truncated.data.keys as string[]).length, 32);
    const stored = await audit.list({ limit: 10 });
    assert.deepEqual(
      stored.map((each) => each.data),
      [row.data, truncated.data],
    );
    assert.ok(stored.every((each) => JSON.stringify(each).length < AUDIT_DATA_MAX_BYTES + 1024));
    assert.equal((await audit.verify()).ok, true);
    database.close();
  });
});
