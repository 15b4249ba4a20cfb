// A login form without `method` submits by GET: the password is then in the page's address, which
// the Gemini profile shows the model and the approval cards show supervisors. Once a secret has
// been typed in a task, addresses reach the model and the gate without query or fragment, and a
// response that echoes the secret percent-encoded is scrubbed like one that echoes it as typed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Action, ActionsResponse, LandingResponse } from '@clawdie/kit/jail-api';
import type { BrowserOperator } from '../../../../controlplane/src/browser/operator/browser-operator.js';
import type { AuditLog } from '../../../../controlplane/src/governance/audit/audit-log.js';
import {
  createTaskCredentials,
  withoutQuery,
} from '../../../../controlplane/src/governance/credentials/task-credentials.js';
import { silentLogger } from '../../../support/silent-logger.js';

const SECRET = 'p@ss w0rd&x=1';
const bank = 'https://bank.example';
const leaked = `${bank}/login?user=al&pass=${encodeURIComponent(SECRET).replaceAll('%20', '+')}#done`;

function operatorAt(url: string, echo: string): BrowserOperator {
  return {
    screenshot: async () => {
      throw new Error('not used');
    },
    state: async () => ({ url, title: 'Welcome' }),
    landing: async () =>
      ({
        url,
        document_id: 'd1',
        target: { frames: [{ url, origin: bank }], element: null, destination: null },
        source: null,
      }) as unknown as LandingResponse,
    execute: async (actions: Action[]) =>
      ({
        results: actions.map(() => ({ status: 'ok', navigated: true, url: echo })),
      }) as unknown as ActionsResponse,
  } as unknown as BrowserOperator;
}

async function credentialsFor(operator: BrowserOperator) {
  const credentials = createTaskCredentials({
    taskId: 't1',
    tenant: 'acme',
    actor: 'system',
    vault: {
      put: async () => undefined,
      reveal: async () => SECRET,
      names: async () => ['bank_password'],
    },
    grants: { mint: async () => 'grant', verify: async () => undefined },
    secrets: [{ name: 'bank_password', hosts: ['bank.example'] }],
    audit: { append: async () => ({}) } as unknown as AuditLog,
    logger: silentLogger,
  } as unknown as Parameters<typeof createTaskCredentials>[0]);
  await credentials.onSecretApproved('bank_password', 'bank.example');
  return credentials.wrapOperator(operator);
}

const typeSecret: Action = {
  type: 'type',
  text: '{{secret:bank_password}}\n',
  expect: { document_id: 'd1', origins: [bank], destination: null },
} as Action;

describe('a secret in the page address', () => {
  it('shows addresses whole until a secret is typed, then without query or fragment', async () => {
    const wrapped = await credentialsFor(operatorAt(leaked, leaked));
    const signal = new AbortController().signal;
    assert.equal((await wrapped.state(signal)).url, leaked, 'nothing typed yet: untouched');
    const response = await wrapped.execute([typeSecret], signal);
    assert.doesNotMatch(JSON.stringify(response), /p%40ss|p@ss/, 'the echo is scrubbed');
    const state = await wrapped.state(signal);
    assert.equal(state.url, `${bank}/login?…`);
    const landing = await wrapped.landing({ type: 'click', x: 1, y: 1 } as Action, signal);
    assert.equal(landing.url, `${bank}/login?…`);
    assert.deepEqual(
      landing.target?.frames.map((frame) => frame.url),
      [`${bank}/login?…`],
    );
    assert.doesNotMatch(JSON.stringify([state, landing]), /pass=|p%40ss/);
  });

  it('keeps an address without query or fragment as it is', () => {
    assert.equal(withoutQuery(`${bank}/account`), `${bank}/account`);
    assert.equal(withoutQuery('about:blank'), 'about:blank');
    assert.equal(withoutQuery('not a url?x=1'), 'not a url?…');
  });
});
