import assert from 'node:assert/strict';
import { parsePrediction } from '../../../../controlplane/src/agent/uitars/parse-prediction.js';
import type {
  ModelAction,
  ParsedPrediction,
} from '../../../../controlplane/src/agent/uitars/types.js';

/** Parses and asserts success. */
export function parseOk(text: string): ParsedPrediction {
  const result = parsePrediction(text);
  if (!result.success)
    assert.fail(`expected success, got ${result.error.code}: ${result.error.message}`);
  return result.data;
}

/** Parses, asserts exactly one action and returns it. */
export function onlyAction(text: string): ModelAction {
  const { actions } = parseOk(text);
  assert.equal(actions.length, 1);
  const [action] = actions;
  assert.ok(action);
  return action;
}

/** Parses and asserts failure. */
export function parseError(text: string): { code: string; message: string; raw: string } {
  const result = parsePrediction(text);
  if (result.success) assert.fail(`expected failure, got ${JSON.stringify(result.data.actions)}`);
  return result.error;
}
