import { browserOperatorContract } from '../../support/browser-operator.contract.js';
import { createFakeOperator } from '../../support/fake-operator.js';

browserOperatorContract('fake operator', async () => ({
  operator: createFakeOperator({ failType: 'wait' }).operator,
  failingAction: { type: 'wait', ms: 1 },
  reachableUrl: 'http://127.0.0.1:9/page',
  close: async () => undefined,
}));
