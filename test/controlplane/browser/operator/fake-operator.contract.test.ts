import { browserOperatorContract } from '../../../support/browser-operator.contract.js';
import { createFakeOperator } from '../../../support/fake-operator.js';

const page = 'http://127.0.0.1:9/form';
const box = (x: number, y: number) => ({ x: x - 10, y: y - 10, width: 20, height: 20 });

browserOperatorContract('fake operator', async () => ({
  operator: createFakeOperator({
    failType: 'wait',
    pages: {
      [page]: {
        regions: [
          { box: box(50, 50), destination: { url: 'http://127.0.0.1:9/next' } },
          { box: box(100, 100), frames: ['http://localhost:9/frame'] },
          {
            box: box(150, 150),
            element: { tag: 'input', input_type: 'password', field: 'password' },
          },
          { box: box(200, 200), element: { tag: 'input', input_type: 'text', field: 'text' } },
        ],
      },
    },
  }).operator,
  failingAction: { type: 'wait', ms: 1 },
  reachableUrl: 'http://127.0.0.1:9/page',
  landing: {
    url: page,
    link: { x: 50, y: 50, href: 'http://127.0.0.1:9/next' },
    frame: { x: 100, y: 100, origin: 'http://localhost:9' },
    password: { x: 150, y: 150 },
    text: { x: 200, y: 200 },
  },
  close: async () => undefined,
}));
