// The side-effect ports the composition root is built from: production passes `realAdapters`,
// tests pass fakes (test/support/controlplane.ts). Nothing here decides policy; it only supplies.

import type { ImageCodecChoice } from '@clawdie/kit/images';
import type { ChildRegistry } from '@clawdie/kit/runner';
import type { Logger } from 'pino';
import type { VisionModel } from '../agent/model/chat-types.js';
import type { ScreencastFeed } from '../browser/operator/screencast-feed.js';
import type { BrowserSource } from '../browser/provider/browser-source.js';
import type { EmbeddedHostd } from '../browser/provider/embedded-hostd.js';
import type { LeaseHolders } from '../browser/provider/orphan-clones.js';
import type { TaskRecorder } from '../browser/recording/task-recorder.js';
import type { VisualJudge } from '../browser/wait/wait-types.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { FleetHosts } from '../fleet/fleet-hosts.js';
import type { AuditLog } from '../governance/audit/audit-log.js';
import type { RunningDemoSite } from '../platform/demo/demo-site-server.js';
import type { NotifyChannel } from '../platform/notify/notify-channel.js';

/** Where a role's tasks get recorded: ffmpeg over the screencast, or undefined (no recording). */
export type RecorderFactory = (deps: {
  feedFor: (taskId: string) => ScreencastFeed | null;
  dataDir: string;
  logger: Logger;
  /** The process's one child registry (ffmpeg children die with the controlplane). */
  children: ChildRegistry;
}) => TaskRecorder | undefined;

export interface ControlplaneAdapters {
  logger: Logger;
  /** The process's one child registry: every child it starts is tracked there. */
  children: ChildRegistry;
  /** The image codec (CLAWDIE_IMAGE_ENCODER: sharp, or the pure-JS fallback), chosen once. */
  images: (config: Readonly<Config>) => Promise<ImageCodecChoice>;
  clock: Clock;
  /** Task and approval ids (instance ids stay random: two processes must never share one). */
  newId: () => string;
  /** The one-off admin token a server without CLAWDIE_ADMIN_TOKEN (or JWKS file) prints. */
  newAdminToken: () => string;
  /** User-facing lines (start-up notices); `printLine` in production. Must not throw. */
  notice: (line: string) => void;
  /** The configured model, or null when none is configured (`npm start` then runs the demo). */
  model: (config: Readonly<Config>) => Promise<VisionModel | null>;
  /**
   * The vision judge of visual conditions (CLAWDIE_JUDGE_*; it may be the task `model`), built
   * once; null: none, and tasks and waits that ask for a visual condition are refused (400).
   */
  judge: (config: Readonly<Config>, model: VisionModel | null) => VisualJudge | null;
  /** Where tasks get their browsers: hostd clones, a jail-service, or a local one. */
  browsers: (
    config: Readonly<Config>,
    deps: { logger: Logger; audit: AuditLog; hosts: FleetHosts | null; holders: LeaseHolders },
  ) => Promise<BrowserSource>;
  /** Only for the `server` role: a hostd child when wanted and possible, else null. */
  embeddedHostd?: (
    config: Readonly<Config>,
    options: { egressAllowInternal: readonly string[] },
  ) => Promise<EmbeddedHostd | null>;
  /** Only for the `server` role without a model: the replay demo's shop on loopback. */
  demoSite?: () => Promise<RunningDemoSite>;
  /** Only for the `server` role; absent = tasks are not recorded. */
  recorder?: RecorderFactory;
  /**
   * A notify channel every replica on the store hears (PostgreSQL LISTEN/NOTIFY, or one in-process
   * channel shared by a test's controlplanes), owned by the caller: approvals answered and task
   * commands sent on any replica reach this one. Absent: a channel of this process only, and
   * task commands are never forwarded (no other process would hear them).
   */
  notify?: NotifyChannel;
}
