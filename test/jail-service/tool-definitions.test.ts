// Each tool is declared once (api/actions.ts for the actions' contract, tools/*.ts for handlers and
// the other tools) and everything else is derived. The type checks below are part of `tsc`
// (npm run check): an action without a handler, a handler for an undeclared action, or a
// handler under another action's name does not compile.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actionContracts, actionPoints, actionSchema, actionTypes } from '@clawdie/kit/jail-api';
import { type ActionHandlers, actionHandlers } from '../../jail-service/src/tools/actions.js';
import { createToolRegistry, toolDeclarations } from '../../jail-service/src/tools/registry.js';
import { silentLogger } from '../support/silent-logger.js';
import { createFakePageDriver } from './fake-page-driver.js';

const { wait: _wait, ...withoutWait } = actionHandlers;
// @ts-expect-error `wait` is declared in api/actions.ts, so it must have a handler.
export const missing: ActionHandlers = withoutWait;
// @ts-expect-error `teleport` is not a declared action.
export const extra: ActionHandlers = { ...actionHandlers, teleport: actionHandlers.wait };
// @ts-expect-error a click handler cannot run a navigate action.
export const swapped: ActionHandlers = { ...actionHandlers, navigate: actionHandlers.click };

function registry(screencast: boolean) {
  return createToolRegistry({
    driver: createFakePageDriver({}),
    logger: silentLogger,
    actionTimeoutMs: 1000,
    navigationTimeoutMs: 3000,
    screenshotQuality: 80,
    screencast: screencast ? { subscribe: async () => async () => undefined } : undefined,
  });
}

describe('tool declarations', () => {
  it('an action lands on a point exactly when it is declared with one', () => {
    for (const type of actionTypes) {
      const { lands, example } = actionContracts[type];
      const points = actionPoints(actionSchema.parse(example));
      assert.equal(lands === 'point', points.length > 0, `${type} lands ${lands}`);
    }
  });

  it('GET /tools lists every declaration once, in order, the stream only with a screencast', () => {
    const names = (tools: { name: string }[]) => tools.map((tool) => tool.name);
    const declared = names([...toolDeclarations]);
    assert.equal(new Set(declared).size, declared.length);
    assert.deepEqual(names(registry(true).describe().tools), declared);
    assert.deepEqual(
      names(registry(false).describe().tools),
      declared.filter((name) => name !== 'screencast'),
    );
  });

  it('binds each timeout policy to the configured bounds', () => {
    const bounds = Object.fromEntries(
      registry(true)
        .describe()
        .tools.map((tool) => [tool.name, tool.timeout_ms]),
    );
    assert.equal(bounds.click, 1000);
    assert.equal(bounds.screenshot, 1000);
    assert.equal(bounds.screencast, 1000);
    assert.equal(bounds.navigate, 3000 + 1000);
    assert.equal(bounds.navigate_back, 3000 + 1000);
    assert.equal(bounds.wait, 1000 + 60_000);
  });
});
