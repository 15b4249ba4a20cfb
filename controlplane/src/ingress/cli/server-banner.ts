// What `npm start` prints once it listens, and the replay demo it runs without a model.

import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeJudge } from '../../agent/model/configured-judge.js';
import { configuredProfile } from '../../agent/model/configured-model.js';
import { describeModelImages } from '../../agent/model/image-encoder.js';
import type { Controlplane } from '../../composition/create-controlplane.js';
import { dashboardLogin } from '../dashboard/dashboard-login-hint.js';
import { createProgressPrinter, printLine, printResult } from './cli-output.js';
import { demoBanner, runDemo } from './demo-command.js';

/** The start-up banner: where the API, browsers, data, model, judge, auth and dashboard are. */
export function printServerBanner(controlplane: Controlplane, url: string): void {
  const { config, model, auth } = controlplane;
  printLine(
    `Clawdie controlplane listening on ${url}  (REST: ${url}/v1/tasks · MCP: ${url}/mcp · OpenAPI: ${url}/openapi.json)`,
  );
  printLine(`browsers: ${controlplane.browsers}`);
  printLine(`egress: ${controlplane.egress}`);
  printLine(`data: ${config.dataDir}`);
  printLine(`store: ${controlplane.store}`);
  printLine(`images: ${controlplane.images.summary}`);
  if (model) {
    printLine(
      `model: ${model.name}${model.isReplay ? ' (REPLAY)' : ''} at ${config.model.url ?? config.model.replayFile}, profile ${config.model.profile}`,
    );
    const profile = configuredProfile(config);
    const encoding = { image: profile.image, encoding: config.model.imageEncoding };
    printLine(`  images: ${describeModelImages(encoding, controlplane.images.codec)}`);
    for (const limit of profile.limits) printLine(`  cannot: ${limit}`);
  } else {
    printLine(
      'model: not configured. Point Clawdie at a model server or API (README.md, "Connecting a model"), e.g. vLLM serving UI-TARS:',
    );
    printLine(
      '  CLAWDIE_MODEL_URL=http://127.0.0.1:8000/v1 CLAWDIE_MODEL_NAME=ui-tars-1.5-7b npm start',
    );
  }
  printLine(`judge: ${describeJudge(config)}`);
  printLine(
    auth?.warning ??
      (auth?.auth?.mode === 'jwt'
        ? `API auth: bearer tokens signed by ${config.auth.jwksFile}`
        : apiAuthLine(auth?.generatedAdminToken ?? null)),
  );
  printLine(
    `dashboard: ${url}/dashboard  ${dashboardLogin(auth?.generatedAdminToken ?? null, config.adminToken)}`,
  );
}

/** Written into the data dir once the start-up demo ran to an end: later starts skip it. */
export const demoShownFile = (dataDir: string) => join(dataDir, 'demo-shown');

/**
 * Without a model, the first `npm start` on a data dir runs the labelled replay demo on its own
 * browsers, printing progress and the outcome; later starts say how to run it again. Never rejects.
 */
export async function runServerDemo(
  controlplane: Controlplane,
  signal: AbortSignal,
): Promise<void> {
  if (controlplane.model) return;
  const shown = demoShownFile(controlplane.config.dataDir);
  if (existsSync(shown)) {
    printLine('demo: shown on an earlier start of this data dir; `npx clawdie demo` runs it again');
    return;
  }
  printLine(demoBanner);
  try {
    const site = controlplane.demoSite;
    const { result, expected } = await runDemo(controlplane.createTasks, {
      signal,
      ...(site ? { site } : {}),
      onEvent: createProgressPrinter(15),
    });
    printResult(result);
    printLine(
      `demo ${result.status === 'finished' && result.summary === expected ? 'succeeded' : 'did not succeed'}; expected answer: ${expected}`,
    );
    if (result.status !== 'aborted') writeFileSync(shown, `${new Date().toISOString()}\n`);
  } catch (error) {
    printLine(`demo failed: ${(error as Error).message}`);
  }
}

/**
 * How to call the API: with the token this start generated (printed on the dashboard line), or
 * the configured CLAWDIE_ADMIN_TOKEN — never a token "printed below" that is not printed.
 */
export function apiAuthLine(generated: string | null): string {
  const which = generated
    ? 'the admin token printed on the dashboard line below (this start only; set CLAWDIE_ADMIN_TOKEN to keep one)'
    : 'the admin token in CLAWDIE_ADMIN_TOKEN';
  return `API auth: on; send Authorization: Bearer with ${which} — the clawdie CLI reads CLAWDIE_ADMIN_TOKEN, pi and MCP-over-HTTP clients CLAWDIE_TOKEN — or run \`clawdie keys rotate\` for per-tenant tokens`;
}
