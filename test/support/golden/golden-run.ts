// The golden-coordinate run (issue 22, point 2): a real page in real Chromium at a given viewport
// and device pixel ratio shows the magenta marker; a controlplane built by the one composition
// root, with the REAL model adapter of a profile (CLAWDIE_MODEL_PROFILE, its wire, its client),
// runs a task against the profile's fake provider server; the page reports where Chromium saw the
// click. Only the network peer (the provider) is fake.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConfiguredModel } from '../../../controlplane/src/agent/model/configured-model.js';
import type { ProfileName } from '../../../controlplane/src/agent/profiles/profile-types.js';
import {
  type LocalJailService,
  startLocalJailService,
} from '../../../controlplane/src/browser/provider/local-jail-service.js';
import { loopbackPrincipal } from '../../../controlplane/src/governance/auth/scopes.js';
import type { CompactResult } from '../../../controlplane/src/tasks/task-input.js';
import { createTestControlplane } from '../controlplane.js';
import { answerAll } from '../gate-fixture.js';
import { silentLogger } from '../silent-logger.js';
import { htmlPage, type StaticSite } from '../static-site.js';
import { testLauncher } from '../test-launcher.js';
import type { GoldenRequest, GoldenServer, GoldenServerOptions } from './golden-types.js';

/** One screen: CSS viewport and device pixel ratio. */
export interface GoldenScreen {
  width: number;
  height: number;
  dpr: 1 | 2;
}

/** The three resolutions of the issue, each at DPR 1 and 2. */
export const GOLDEN_SCREENS: readonly GoldenScreen[] = [1, 2].flatMap((dpr) =>
  [
    { width: 1280, height: 800 },
    { width: 1366, height: 768 },
    { width: 1920, height: 1080 },
  ].map((size) => ({ ...size, dpr: dpr as 1 | 2 })),
);

/** The marker: a 24 CSS px magenta square, off-centre and at a different spot per screen. */
export function markerBox(screen: GoldenScreen) {
  const size = 24;
  return {
    left: Math.round(screen.width * 0.63),
    top: Math.round(screen.height * 0.58),
    size,
    centre: {
      x: Math.round(screen.width * 0.63) + size / 2,
      y: Math.round(screen.height * 0.58) + size / 2,
    },
  };
}

/** The page: the marker, and a click listener that reports where Chromium saw the click. */
export function goldenPage(screen: GoldenScreen): string {
  const box = markerBox(screen);
  return htmlPage(
    'golden',
    `<style>html,body{margin:0;background:#fff;overflow:hidden}</style>
<div id="m" style="position:fixed;left:${box.left}px;top:${box.top}px;width:${box.size}px;height:${box.size}px;background:#ff00ff"></div>
<script>document.addEventListener('click', (e) => {
  fetch('/clicked?x=' + e.clientX + '&y=' + e.clientY + '&hit=' + (e.target.id === 'm' ? 1 : 0));
});</script>`,
  );
}

/** A browser at one screen: the local jail-service (real Chromium) started with its geometry. */
export function startGoldenJail(screen: GoldenScreen): Promise<LocalJailService> {
  return startLocalJailService({
    egressProxyUrl: null,
    launcher: testLauncher,
    env: {
      ...process.env,
      CLAWDIE_JAIL_VIEWPORT: `${screen.width}x${screen.height}`,
      CLAWDIE_JAIL_DEVICE_SCALE_FACTOR: String(screen.dpr),
    },
    logger: silentLogger,
  });
}

/** A profile under test: its fake provider and how Clawdie is configured to reach it. */
export interface GoldenProfile {
  label: string;
  profile: ProfileName;
  modelName: string;
  start(options: GoldenServerOptions & Record<string, unknown>): Promise<GoldenServer>;
}

export interface GoldenOutcome {
  result: CompactResult;
  /** Where the page saw clicks (CSS px), and whether each hit the marker. */
  clicks: { x: number; y: number; hit: boolean }[];
  requests: readonly GoldenRequest[];
}

export interface GoldenRunOptions {
  /** Options for the fake provider beyond its key (e.g. a safety signal on the click). */
  fake?: Record<string, unknown>;
  /** Answers every supervisor approval the task asks for (default: none is answered). */
  answer?: 'approve' | 'deny';
}

/** Runs one task of `profile` on `screen` through `jail`, the page served by `site`. */
export async function runGolden(
  entry: GoldenProfile,
  screen: GoldenScreen,
  jail: LocalJailService,
  site: StaticSite,
  options: GoldenRunOptions = {},
): Promise<GoldenOutcome & { approvals: { kind: string; reason: string }[] }> {
  const apiKey = `golden-key-${entry.profile}`;
  const slug = entry.label.replace(/[^a-z0-9.]+/gi, '-');
  const server = await entry.start({ ...options.fake, apiKey });
  const policyDir = mkdtempSync(join(tmpdir(), 'clawdie-golden-'));
  const path = `/golden-${slug}-${screen.width}x${screen.height}@${screen.dpr}`;
  site.set(path, goldenPage(screen));
  writeFileSync(
    join(policyDir, 'default.yaml'),
    `tenant: default\ndomains: { allow: ["${new URL(site.url).host}"] }\nmax_steps: 4\n`,
  );
  const controlplane = await createTestControlplane({
    browsers: 'config',
    adapters: { model: (config) => createConfiguredModel(config) },
    env: {
      CLAWDIE_JAIL_URL: jail.url,
      CLAWDIE_JAIL_TOKEN: jail.token,
      CLAWDIE_POLICY_DIR: policyDir,
      CLAWDIE_MAX_STEPS: '4',
      CLAWDIE_MODEL_URL: server.url,
      CLAWDIE_MODEL_NAME: entry.modelName,
      CLAWDIE_MODEL_API_KEY: apiKey,
      CLAWDIE_MODEL_PROFILE: entry.profile,
      CLAWDIE_MODEL_RETRIES: '0',
      // Waits are not under test; the smart wait would only slow the second screenshot down.
      CLAWDIE_SMART_WAIT: 'false',
    },
  });
  const seen = site.requests.length;
  try {
    const plan = await controlplane.tasks.admit(
      { instruction: 'Click the magenta square.', start_url: `${site.url}${path}` },
      loopbackPrincipal,
    );
    const done = (await controlplane.tasks.start(plan)).done;
    const answering = options.answer ? answerAll(controlplane, done, options.answer) : null;
    const result = await done;
    await answering;
    const approvals = (await controlplane.approvals.list({ limit: 10 })).map(
      ({ kind, reason }) => ({ kind, reason }),
    );
    const clicks = site.requests
      .slice(seen)
      .filter((request) => request.startsWith('/clicked?'))
      .map((request) => {
        const query = new URLSearchParams(request.slice(request.indexOf('?') + 1));
        return {
          x: Number(query.get('x')),
          y: Number(query.get('y')),
          hit: query.get('hit') === '1',
        };
      });
    return { result, clicks, requests: server.requests, approvals };
  } finally {
    await controlplane.close();
    await server.close();
    rmSync(policyDir, { recursive: true, force: true });
  }
}
