// What `npm start` prints once it listens, and the replay demo it runs without a model.

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
        : 'API auth: on; send Authorization: Bearer <admin token> (CLAWDIE_ADMIN_TOKEN or the one printed below), or run `clawdie keys rotate` for per-tenant tokens'),
  );
  printLine(
    `dashboard: ${url}/dashboard  ${dashboardLogin(auth?.generatedAdminToken ?? null, config.adminToken)}`,
  );
}

/**
 * Without a model, `npm start` runs the labelled replay demo once on its own browsers, printing
 * progress and the outcome. Never rejects.
 */
export async function runServerDemo(
  controlplane: Controlplane,
  signal: AbortSignal,
): Promise<void> {
  if (controlplane.model) return;
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
  } catch (error) {
    printLine(`demo failed: ${(error as Error).message}`);
  }
}
