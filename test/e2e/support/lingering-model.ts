// A task that runs until something ends it: each step takes 200 ms of "model" time and waits.
// For drills that need tasks mid-run on real clones (fleet-tasks, replica-fleet).
import { setTimeout as delay } from 'node:timers/promises';
import type { VisionModel } from '../../../controlplane/src/agent/model/chat-types.js';
import type { RunningDemoSite } from '../../../controlplane/src/platform/demo/demo-site-server.js';

export const lingering: VisionModel = {
  name: 'lingering',
  isReplay: true,
  async complete(request, signal) {
    await delay(200, undefined, { signal });
    return { text: 'Action: wait()', requestBytes: JSON.stringify(request).length, usage: null };
  },
};

/** The input of a lingering task on the demo site (100 steps at most). */
export const lingerOn = (site: RunningDemoSite) => ({
  instruction: 'linger on the shop',
  start_url: site.url,
  domains: [new URL(site.url).host],
  max_steps: 100,
});
