// hostd with the FreeBSD driver, selected from its config as on a FreeBSD host, over the in-memory
// FreeBSD host (every argv checked against the real tools' grammar), behind hostd's real HTTP app
// on loopback, and the controlplane's composition root pointed at it with CLAWDIE_HOSTD_URL, as
// `npm start` with an external hostd. The fake jail's exec.start runs the real jail-service (and,
// for a desktop jail, a real Xvfb); only the jail's addresses are mapped to loopback.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChildRegistry, SpawnLauncher } from '@clawdie/kit/runner';
import { createApp as createHostdApp } from '../../../hostd/src/app.js';
import { CloneManager } from '../../../hostd/src/clones/clone-manager.js';
import { loadConfig as loadHostdConfig } from '../../../hostd/src/config.js';
import { createDriver } from '../../../hostd/src/drivers/select-driver.js';
import { createAddressPolicy } from '../../../hostd/src/proxy/address-policy.js';
import { JailServiceProcesses } from '../../hostd/freebsd/fake/jail-service-processes.js';
import { throughLoopback } from '../../hostd/freebsd/fake/loopback-driver.js';
import { FakeFreeBSD } from '../../hostd/freebsd/fake-freebsd.js';
import { chromiumPath } from '../../support/capabilities.js';
import { createTestControlplane, type TestControlplane } from '../../support/controlplane.js';
import { closeServer, serveOnLoopback } from './hostd-controlplane.js';

export interface FreeBsdFakeControlplane {
  fake: FakeFreeBSD;
  services: JailServiceProcesses;
  manager: CloneManager;
  controlplane: TestControlplane;
  /** What the FreeBSD driver's preflight reported over the fake host (empty: ready). */
  preflight: string[];
  close(): Promise<void>;
}

/**
 * Starts it all. `sites` (loopback `host:port`) are hostd's exact egress exceptions and the
 * default tenant policy's domains (with `*` too when `anyHost`).
 */
export async function startFreeBsdFakeControlplane(options: {
  sites: readonly string[];
  anyHost?: boolean;
}): Promise<FreeBsdFakeControlplane> {
  const token = `hostd-freebsd-fake-${process.pid}-0123456789`;
  const fake = new FakeFreeBSD();
  const services = new JailServiceProcesses({ chromiumPath });
  fake.state.processes = services;
  // hostd's own selection: the platform is FreeBSD, so its config picks the FreeBSD driver.
  const config = loadHostdConfig(
    { CLAWDIE_HOSTD_TOKEN: token, CLAWDIE_HOSTD_START_TIMEOUT_MS: '60000' },
    undefined,
    'freebsd',
  );
  assert.equal(config.driver, 'freebsd');
  const freebsd = createDriver(config, {
    runner: fake.runner,
    launcher: new SpawnLauncher(new ChildRegistry()),
    files: fake.files,
    healthCheck: fake.healthCheck,
  });
  const preflight = (await freebsd.preflight?.()) ?? [];
  const driver = throughLoopback(freebsd, services);
  const manager = new CloneManager({
    driver,
    defaultLimits: config.limits,
    defaultDisplay: false,
    // The proxy binds the (mapped) host end at a free port: 3128 may be taken here.
    proxyPort: 0,
    poolSize: 0,
    startTimeoutMs: config.startTimeoutMs,
    addressPolicy: createAddressPolicy({ internalExceptions: options.sites }),
  });
  const hostd = await serveOnLoopback(createHostdApp({ token, manager, driver }).fetch);
  const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-freebsd-fake-'));
  const policyDir = join(dataDir, 'policies');
  mkdirSync(policyDir);
  const allow = [...(options.anyHost ? ['*'] : []), ...options.sites];
  writeFileSync(
    join(policyDir, 'default.yaml'),
    `tenant: default\ndomains: { allow: ${JSON.stringify(allow)} }\nmax_steps: 100\n`,
  );
  const release = async () => {
    closeServer(hostd);
    await manager.close();
    await services.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const controlplane = await createTestControlplane({
    browsers: 'config',
    env: {
      CLAWDIE_POLICY_DIR: policyDir,
      CLAWDIE_DATA_DIR: dataDir,
      CLAWDIE_HOSTD_URL: hostd.url,
      CLAWDIE_HOSTD_TOKEN: token,
    },
  }).catch(async (error: unknown) => {
    await release();
    throw error;
  });
  return {
    fake,
    services,
    manager,
    controlplane,
    preflight,
    async close() {
      await controlplane.close();
      await release();
    },
  };
}
