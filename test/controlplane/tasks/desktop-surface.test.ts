// `surface: 'desktop'` in the task service: the lease is asked for a display, the loop drives the
// display's operator with the computer action space while start_url opens in the lease's browser,
// and a lease without a display ends the task OPERATOR_UNAVAILABLE with its row recorded.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type {
  ModelRequest,
  VisionModel,
} from '../../../controlplane/src/agent/model/chat-types.js';
import type { BrowserOperator } from '../../../controlplane/src/browser/operator/browser-operator.js';
import type {
  BrowserLease,
  BrowserProvider,
  BrowserRequest,
} from '../../../controlplane/src/browser/provider/browser-provider.js';
import { createDesktopSurfaceOperator } from '../../../controlplane/src/tasks/desktop-surface-operator.js';
import { createDesktopTaskOperator } from '../../../controlplane/src/tasks/desktop-task-operator.js';
import { browserRunTaskInputSchema } from '../../../controlplane/src/tasks/task-input.js';
import { createTaskService } from '../../../controlplane/src/tasks/task-service.js';
import { createFakeOperator } from '../../support/fake-operator.js';
import { createPerTaskScriptModel } from '../../support/per-task-script-model.js';
import { submit } from '../../support/submit-task.js';
import { createTestTaskDeps } from '../../support/test-task-deps.js';

/** Hands out one fake browser per task, with `display` on its lease; records requests and releases. */
function fakeProvider(display: string | null) {
  const requests: BrowserRequest[] = [];
  let released = 0;
  const browser = createFakeOperator();
  const provider: BrowserProvider = {
    concurrency: 1,
    async acquire(request): Promise<BrowserLease> {
      requests.push(request);
      return {
        id: 'browsertask001',
        service: null,
        display,
        operator: browser.operator,
        release: async () => {
          released += 1;
        },
      };
    },
  };
  return { provider, requests, browser, released: () => released };
}

/** Keeps every request the model gets, so the prompt's action space can be checked. */
function recordingModel(script: string[]): { model: VisionModel; requests: ModelRequest[] } {
  const inner = createPerTaskScriptModel(script);
  const requests: ModelRequest[] = [];
  return {
    requests,
    model: {
      ...inner,
      complete(request, signal) {
        requests.push(request);
        return inner.complete(request, signal);
      },
    },
  };
}

const script = [
  "Action: click(start_box='<|box_start|>(500,500)<|box_end|>')",
  "Action: type(content='hello')",
  "Action: finished(content='typed')",
];

/** The UI-TARS prompt (the conversation's first message). */
function taskPrompt(request: ModelRequest | undefined): string {
  const content = request?.messages[0]?.content ?? '';
  return typeof content === 'string' ? content : JSON.stringify(content);
}

describe('surface: desktop', () => {
  it('defaults to browser in the input schema and accepts desktop', () => {
    assert.equal(browserRunTaskInputSchema.parse({ instruction: 'x' }).surface, 'browser');
    const desktop = browserRunTaskInputSchema.parse({ instruction: 'x', surface: 'desktop' });
    assert.equal(desktop.surface, 'desktop');
    assert.equal(
      browserRunTaskInputSchema.safeParse({ instruction: 'x', surface: 'screen' }).success,
      false,
    );
  });

  it('drives the lease display with the computer action space; start_url opens in its browser', async () => {
    const { model, requests } = recordingModel(script);
    const { deps, close } = createTestTaskDeps({ model });
    const { provider, requests: leases, browser, released } = fakeProvider(':42');
    const desktop = createFakeOperator();
    const displays: string[] = [];
    const desktopOperator = (lease: BrowserLease): BrowserOperator => {
      displays.push(lease.display ?? '');
      return desktop.operator;
    };
    const tasks = createTaskService({ ...deps, desktopOperator }, undefined, provider);
    const result = await (
      await submit(tasks, {
        instruction: 'type hello',
        surface: 'desktop',
        start_url: 'http://127.0.0.1:9/form',
      })
    ).done;

    assert.equal(result.status, 'finished', JSON.stringify(result));
    assert.equal(leases[0]?.display, true);
    assert.deepEqual(displays, [':42']);
    assert.deepEqual(browser.executed, [{ type: 'navigate', url: 'http://127.0.0.1:9/form' }]);
    assert.deepEqual(
      desktop.executed.map((action) => action.type),
      ['click', 'type'],
    );
    // A display has no DOM: the loop never asks the display's surface where an action lands
    // (the task operator answers `target: null`), and nothing is pinned with `expect`.
    assert.deepEqual(desktop.landings, []);
    assert.ok(desktop.sent.every((action) => !('expect' in action)));
    const prompt = taskPrompt(requests[0]);
    assert.match(prompt, /type\(content=/);
    assert.doesNotMatch(prompt, /navigate\(content=/, 'no browser navigation on a desktop');
    assert.equal(released(), 1);
    close();
  });

  it('keeps browser tasks on the browser, without asking for a display', async () => {
    const { model, requests } = recordingModel(script);
    const { deps, close } = createTestTaskDeps({ model });
    const { provider, requests: leases, browser } = fakeProvider(':42');
    const desktopOperator = (): BrowserOperator => assert.fail('no desktop for a browser task');
    const tasks = createTaskService({ ...deps, desktopOperator }, undefined, provider);
    const result = await (await submit(tasks, { instruction: 'type hello' })).done;
    assert.equal(result.status, 'finished', JSON.stringify(result));
    assert.equal(leases[0]?.display, undefined);
    assert.deepEqual(
      browser.executed.map((action) => action.type),
      ['click', 'type'],
    );
    assert.match(taskPrompt(requests[0]), /navigate\(content=/);
    close();
  });

  it('ends OPERATOR_UNAVAILABLE, recorded, and gives the browser back when the lease has no display', async () => {
    const { deps, repository, close } = createTestTaskDeps({
      model: createPerTaskScriptModel(script),
    });
    const { provider, requests: leases, browser, released } = fakeProvider(null);
    const tasks = createTaskService(deps, undefined, provider);
    const result = await (
      await submit(tasks, {
        instruction: 'type hello',
        surface: 'desktop',
        start_url: 'http://127.0.0.1:9/form',
      })
    ).done;

    assert.equal(result.status, 'error');
    assert.equal(result.error?.code, 'OPERATOR_UNAVAILABLE');
    assert.match(result.error?.message ?? '', /desktop tasks need hostd with displays/);
    assert.match(result.error?.message ?? '', /"browsertask001" has no X display/);
    assert.equal(leases[0]?.display, true);
    assert.equal(released(), 1, 'the display-less browser was given back');
    assert.deepEqual(browser.executed, [], 'nothing ran on it');
    const row = await repository.getTask(result.trace_id);
    assert.equal(row?.status, 'error');
    assert.equal(row?.errorCode, 'OPERATOR_UNAVAILABLE');
    close();
  });

  it('by default drives the desktop surface of the clone’s jail-service over HTTP', async () => {
    const seen: string[] = [];
    const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      seen.push(`${init?.method ?? 'GET'} ${String(input)} ${headers.get('authorization')}`);
      return Response.json({ url: 'x11://:42', title: 'Form', loading: false });
    }) as typeof globalThis.fetch;
    const browser = createFakeOperator().operator;
    const lease = {
      id: 'browsertask001',
      service: { url: 'http://10.0.0.2:9230/', token: 'clone-token' },
      display: ':42',
      operator: browser,
      release: async () => undefined,
    };
    const state = await createDesktopSurfaceOperator(lease, fetch).state();
    assert.equal(state.url, 'x11://:42');
    assert.deepEqual(seen, ['GET http://10.0.0.2:9230/desktop/state Bearer clone-token']);
    const orphan = createDesktopSurfaceOperator({ ...lease, service: null });
    await assert.rejects(orphan.state(), /has none/);
  });

  it('the single local browser (no hostd) cannot run desktop tasks', async () => {
    const { deps, close } = createTestTaskDeps({ model: createPerTaskScriptModel(script) });
    const tasks = createTaskService(deps);
    const result = await (await submit(tasks, { instruction: 'type hello', surface: 'desktop' }))
      .done;
    assert.equal(result.status, 'error');
    assert.equal(result.error?.code, 'OPERATOR_UNAVAILABLE');
    assert.match(result.error?.message ?? '', /desktop tasks need hostd with displays/);
    close();
  });
});

/** A display whose window title and frames follow scripts (the last entry repeats). */
function scriptedDisplay(titles: string[], frames: string[]) {
  const calls = { state: 0, screenshot: 0 };
  const pick = (list: string[], n: number) => list[Math.min(n, list.length - 1)] ?? '';
  const operator: BrowserOperator = {
    ...createFakeOperator().operator,
    async state() {
      return { url: 'x11://:42', title: pick(titles, calls.state++), loading: false };
    },
    async screenshot() {
      const jpeg = Buffer.from(pick(frames, calls.screenshot++));
      const size = { viewportWidth: 1, viewportHeight: 1, imageWidth: 1, imageHeight: 1 };
      return { jpeg, meta: { ...size, devicePixelRatio: 1 } };
    },
  };
  return { operator, calls };
}

function pageBrowser(title: string): BrowserOperator {
  return {
    ...createFakeOperator().operator,
    state: async () => ({ url: 'http://127.0.0.1:9/form', title, loading: false }),
  };
}

describe('desktop task operator', () => {
  it('first screenshot waits for the page title on the display, then for a steady frame', async () => {
    const display = scriptedDisplay(
      ['about:blank - Chromium', 'about:blank - Chromium', 'Form - Chromium'],
      ['stale', 'painted', 'painted', 'later'],
    );
    const operator = createDesktopTaskOperator(display.operator, pageBrowser('Form'), {
      pollMs: 1,
    });
    assert.equal((await operator.screenshot()).jpeg.toString(), 'later');
    assert.deepEqual(display.calls, { state: 3, screenshot: 4 });
    await operator.screenshot();
    assert.equal(display.calls.state, 3, 'only the first screenshot waits');
  });

  it('gives up waiting after settleMs and still takes the screenshot', async () => {
    const display = scriptedDisplay(['other window'], ['frame']);
    const operator = createDesktopTaskOperator(display.operator, pageBrowser('Form'), {
      settleMs: 30,
      pollMs: 5,
    });
    assert.equal((await operator.screenshot()).jpeg.toString(), 'frame');
    assert.ok(display.calls.state >= 2);
  });
});
