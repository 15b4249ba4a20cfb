// The production side-effect ports for `npm start` and the CLI.
import { randomBytes, randomUUID } from 'node:crypto';
import { selectImageCodec } from '@clawdie/kit/images';
import { createConfiguredJudge } from '../agent/model/configured-judge.js';
import { createConfiguredModel } from '../agent/model/configured-model.js';
import { openBrowserSource } from '../browser/provider/browser-source.js';
import { startEmbeddedHostdIfWanted } from '../browser/provider/embedded-hostd.js';
import { createAvailableRecorder } from '../browser/recording/ffmpeg-recorder.js';
import { systemClock } from '../clock.js';
import type { Config } from '../config.js';
import { printLine } from '../ingress/cli/cli-output.js';
import { createLogger } from '../logger.js';
import type { ControlplaneLauncher } from '../platform/runner/process-launcher.js';
import type { ControlplaneAdapters } from './adapters.js';

/**
 * Real adapters: the pino logger on stderr at `config.logLevel`, the system clock, random ids,
 * the configured model and judge, browsers from hostd / a jail-service / a local one, the embedded hostd,
 * the demo shop and ffmpeg recording (those three only used by the `server` role).
 */
export function realAdapters(
  config: Readonly<Config>,
  env: Record<string, string | undefined>,
  launcher: ControlplaneLauncher,
): ControlplaneAdapters {
  const logger = createLogger(config.logLevel);
  return {
    logger,
    children: launcher.children,
    images: (effective) => selectImageCodec(effective.imageEncoder),
    clock: systemClock,
    newId: randomUUID,
    newAdminToken: () => randomBytes(18).toString('base64url'),
    notice: printLine,
    model: createConfiguredModel,
    judge: createConfiguredJudge,
    browsers: (effective, deps) => openBrowserSource(effective, { ...deps, env, launcher }),
    embeddedHostd: (effective, options) =>
      startEmbeddedHostdIfWanted(effective, {
        env,
        logger,
        launcher,
        notice: printLine,
        ...options,
      }),
    // Only the server without a model serves the demo shop; the CLI never loads its hono app.
    demoSite: async () => (await import('../platform/demo/demo-site-server.js')).startDemoSite(),
    recorder: createAvailableRecorder,
  };
}
