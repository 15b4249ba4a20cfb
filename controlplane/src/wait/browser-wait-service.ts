import { systemClock } from '../clock.js';
import type { BrowserOperator } from '../operator/browser-operator.js';
import { createJailPageProbe, operatorFrames } from './jail-page-probe.js';
import { WaitEngine } from './wait-engine.js';
import { createWaitService, type WaitService } from './wait-service.js';

/** `/v1/waits` over the controlplane's browser: its screenshots and its jail-service state. */
export function createBrowserWaitService(platform: {
  operator: BrowserOperator;
  jail: { url: string; token: string };
}): WaitService {
  const engine = new WaitEngine({ clock: systemClock });
  return createWaitService(engine, {
    frames: operatorFrames(platform.operator, 'browser'),
    probe: createJailPageProbe(platform.jail),
  });
}
