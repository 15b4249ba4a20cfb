// The placeholder guard's refusal is audited before it stops the batch; when that row cannot be
// written (a full disk) the batch still does not run, and the error says the audit failed
// (AUDIT_WRITE_FAILED), not that an operator refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Action } from '@clawdie/kit/jail-api';
import type { BrowserOperator } from '../../../../controlplane/src/browser/operator/browser-operator.js';
import type { AuditLog } from '../../../../controlplane/src/governance/audit/audit-log.js';
import { refuseSecretPlaceholders } from '../../../../controlplane/src/governance/credentials/placeholder-guard.js';

function operatorRecording(executed: Action[][]): BrowserOperator {
  return {
    execute: async (actions: Action[]) => {
      executed.push(actions);
      return { results: [] };
    },
  } as unknown as BrowserOperator;
}

function auditThat(append: AuditLog['append']): { audit: AuditLog; rows: unknown[] } {
  const rows: unknown[] = [];
  return {
    rows,
    audit: {
      append: async (event) => {
        const record = await append(event);
        rows.push(event);
        return record;
      },
    } as AuditLog,
  };
}

const typing: Action[] = [{ type: 'type', text: '{{secret:bank_password}}' }];

describe('the secret placeholder guard and its audit row', () => {
  it('refuses OPERATOR_REJECTED once the refusal is recorded, running nothing', async () => {
    const executed: Action[][] = [];
    const { audit, rows } = auditThat(async () => ({}) as Awaited<ReturnType<AuditLog['append']>>);
    const guarded = refuseSecretPlaceholders(operatorRecording(executed), {
      taskId: 't1',
      actor: 'system',
      audit,
    });
    await assert.rejects(guarded.execute(typing, new AbortController().signal), {
      code: 'OPERATOR_REJECTED',
    });
    assert.equal(rows.length, 1);
    assert.deepEqual(executed, []);
  });

  it('ends AUDIT_WRITE_FAILED, running nothing, when the refusal cannot be recorded', async () => {
    const executed: Action[][] = [];
    const { audit } = auditThat(async () => {
      throw new Error('SQLITE_FULL: database or disk is full');
    });
    const guarded = refuseSecretPlaceholders(operatorRecording(executed), {
      taskId: 't1',
      actor: 'system',
      audit,
    });
    await assert.rejects(guarded.execute(typing, new AbortController().signal), {
      code: 'AUDIT_WRITE_FAILED',
      message: /credential-refused: .*disk is full/,
    });
    assert.deepEqual(executed, []);
  });
});
