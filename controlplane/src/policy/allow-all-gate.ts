import type { ActionGate } from './gate-types.js';

/**
 * The gate of a task with no tenant policy (`allowAllPlan`: the labelled demo, replays, services
 * built without a policy). It allows every browser action; the loop then still refuses navigation
 * outside the task's own `domains`. `call_user` is not handled by anyone, so it ends the task.
 * Named so that every unpoliced path shows up in review: grep for `allowAllGate`.
 */
export const allowAllGate: ActionGate = async function allowAllGate(request) {
  return request.callUser !== undefined
    ? { allowed: false, message: 'call_user ends the task' }
    : { allowed: true };
};
