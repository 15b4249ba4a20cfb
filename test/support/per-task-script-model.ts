import type { VisionModel } from '../../controlplane/src/agent/model/chat-types.js';

/**
 * A model that answers every task with the same script: the n-th reply of a conversation is
 * `outputs[n]`, chosen by counting the assistant turns already in the request. Unlike the replay
 * model it serves any number of tasks, so several surfaces can run "the same task".
 */
export function createPerTaskScriptModel(outputs: readonly string[]): VisionModel {
  return {
    name: 'per-task-script',
    isReplay: true,
    async complete(request, signal) {
      signal?.throwIfAborted();
      const turn = request.messages.filter((message) => message.role === 'assistant').length;
      const text = outputs[Math.min(turn, outputs.length - 1)] ?? 'Action: wait()';
      return { text, requestBytes: JSON.stringify(request).length, usage: null };
    },
  };
}
