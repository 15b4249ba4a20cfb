// The scripted model of the download traps (issue 23): clicks each trap of the download site
// (test/support/download-site.ts) on a 1280×800 page through the UI-TARS-1.5 coordinate mapping,
// then finishes; it keeps the text of every request it got (what the model was told).
import type { VisionModel } from '../../controlplane/src/agent/model/chat-types.js';
import { modelDivisors } from '../../controlplane/src/agent/uitars/index.js';
import { TRAP_POINTS, type Trap } from './download-site.js';
import { createPerTaskScriptModel } from './per-task-script-model.js';

export const TRAP_VIEWPORT = { width: 1280, height: 800 };

export function clickTrap(trap: Trap): string {
  const { width, height } = TRAP_VIEWPORT;
  const divisors = modelDivisors('1.5', TRAP_VIEWPORT);
  const { x, y } = TRAP_POINTS[trap];
  const point = `(${Math.round((x / width) * divisors.width)},${Math.round((y / height) * divisors.height)})`;
  return `Thought: Download it.\nAction: click(start_box='<|box_start|>${point}<|box_end|>')`;
}

/** pdf, post, blob (allowed), exe (a type not allowed), big (over the per-file limit), finished. */
export const TRAP_SCRIPT: readonly string[] = [
  ...(['pdf', 'post', 'blob', 'exe', 'big'] as const).map(clickTrap),
  "Thought: All files are saved.\nAction: finished(content='downloaded')",
];

export function recordingTrapModel(): { model: VisionModel; requests: string[] } {
  const inner = createPerTaskScriptModel(TRAP_SCRIPT);
  const requests: string[] = [];
  return {
    requests,
    model: {
      ...inner,
      complete(request, signal, hooks) {
        requests.push(JSON.stringify(request.messages));
        return inner.complete(request, signal, hooks);
      },
    },
  };
}
