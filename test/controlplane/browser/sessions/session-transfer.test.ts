import { after, describe } from 'node:test';
import { createJailSessionClient } from '../../../../controlplane/src/browser/operator/jail-session-client.js';
import { startTestJail, type TestJail, TOKEN } from '../../../jail-service/jail-harness.js';
import { requires } from '../../../support/capabilities.js';
import { createFakeSessionTransfer } from '../../../support/fake-session-transfer.js';
import { sessionTransferContract } from '../../../support/session-transfer.contract.js';

describe('SessionTransfer contract: the in-memory fake', () => {
  sessionTransferContract(async () => createFakeSessionTransfer({ cookies: [], origins: [] }));
});

describe(
  'SessionTransfer contract: the jail-service client on real Chromium',
  requires('chromium'),
  () => {
    const jails: TestJail[] = [];
    after(async () => {
      await Promise.all(jails.map((jail) => jail.close()));
    });
    sessionTransferContract(async () => {
      const jail = await startTestJail();
      jails.push(jail);
      return createJailSessionClient({ url: jail.url, token: TOKEN });
    });
  },
);
