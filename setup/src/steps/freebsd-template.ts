// The FreeBSD browser template (freebsd-jails.md §1.2, §1.7): Bastille bootstraps the release and
// builds one thick VNET jail with Chromium, Node and the jail-service; it is stopped and
// snapshotted as `@hostd-<generation>`, the origin of every per-task `zfs clone`.
// Bastille's exit codes lie (§1.6): every Bastille command is marked unreliable and each step is
// re-checked with zfs/jls/pkg afterwards.
import { posix } from 'node:path';
import type { FreeBsdSetupConfig } from '../config.js';
import { ensure, type PlanCommand, probe, type SetupStep } from './step.js';
import { resolveTemplateNetwork } from './template-network.js';

const BASTILLE = '/usr/local/bin/bastille';

export function freeBsdTemplateSteps(config: FreeBsdSetupConfig): SetupStep[] {
  const pool = `${config.zpool}/bastille`;
  const name = config.templateName;
  const rootDataset = `${pool}/jails/${name}/root`;
  const root = `${config.bastillePrefix}/jails/${name}/root`;
  const snapshot = config.templateSnapshot;
  const SERVICE_DIR = config.serviceDir;
  // The kit sits beside the jail-service, on the host and in the template (`file:../kit`).
  const KIT_DIR = `${posix.dirname(SERVICE_DIR)}/kit`;
  const kitSource = `${posix.dirname(config.jailServiceSource)}/kit`;
  const bastille = (...args: string[]): PlanCommand => ({
    argv: [BASTILLE, ...args],
    unreliableExit: true,
  });
  // Started only for the work that needs it and stopped again, so a repeated run changes nothing.
  const startTemplate = [bastille('start', name), { argv: ['/usr/sbin/jls', '-j', name, 'jid'] }];
  const stopTemplate = bastille('stop', name);
  return [
    ensure({
      id: 'release',
      title: `Bastille release ${config.release}`,
      argv: ['/sbin/zfs', 'list', '-H', '-o', 'name', `${pool}/releases/${config.release}`],
      plan: [bastille('bootstrap', '-u', config.release)],
    }),
    templateJail(config, rootDataset, (ip, iface) =>
      bastille('create', '-T', '-V', name, config.release, ip, iface),
    ),
    templatePackages(config, root, [
      ...startTemplate,
      bastille('pkg', '-y', name, 'install', ...config.packages),
      stopTemplate,
    ]),
    ensure({
      id: 'template-service-user',
      title: `service user ${config.serviceUser} (uid ${config.serviceUid}) in the template`,
      argv: ['/usr/sbin/pw', '-R', root, 'usershow', config.serviceUser],
      plan: [
        {
          argv: [
            ...['/usr/sbin/pw', '-R', root, 'useradd', config.serviceUser],
            ...['-u', String(config.serviceUid), '-d', '/nonexistent', '-s', '/usr/sbin/nologin'],
          ],
        },
      ],
    }),
    {
      id: 'jail-service-built',
      title: 'jail-service and its kit built on the host',
      async check(context) {
        const argv = [
          ...['/bin/test', '-f', `${config.jailServiceSource}/dist/main.js`],
          ...['-a', '-f', `${kitSource}/dist/jail-api/index.js`],
        ];
        const result = await probe(context, argv);
        return {
          done: result.exitCode === 0,
          detail: `${argv.join(' ')} → exit ${result.exitCode}`,
          plan: [],
          hint: 'run `npm run build -w kit -w jail-service` in the checkout first',
        };
      },
    },
    ensure({
      id: 'template-jail-service',
      title: 'jail-service installed in the template',
      argv: [
        ...['/bin/test', '-d', `${root}${SERVICE_DIR}/node_modules/puppeteer-core`],
        ...['-a', '-d', `${root}${SERVICE_DIR}/node_modules/@clawdie/kit/dist`],
      ],
      plan: [
        { argv: ['/bin/mkdir', '-p', `${root}${SERVICE_DIR}`, `${root}${KIT_DIR}`] },
        // The jail-service depends on its sibling `file:../kit`; `--install-links` copies the kit
        // (with its own dependencies) into the service's node_modules instead of a symlink.
        {
          argv: [
            ...['/bin/cp', '-R', `${kitSource}/dist`],
            ...[`${kitSource}/package.json`, `${root}${KIT_DIR}/`],
          ],
        },
        {
          argv: [
            ...['/bin/cp', '-R', `${config.jailServiceSource}/dist`],
            ...[`${config.jailServiceSource}/package.json`, `${root}${SERVICE_DIR}/`],
          ],
        },
        ...startTemplate,
        bastille(
          ...['cmd', name, '/usr/local/bin/npm', 'install', '--omit=dev', '--install-links'],
          ...['--no-audit', '--no-fund', '--prefix', SERVICE_DIR],
        ),
        stopTemplate,
      ],
    }),
    ensure({
      id: 'template-stopped',
      title: 'template stopped (consistent snapshot)',
      argv: ['/usr/sbin/jls', '-j', name, 'jid'],
      absent: true,
      plan: [stopTemplate],
    }),
    ensure({
      id: 'hostd-tasks-dataset',
      title: `hostd's dataset ${config.tasksDataset}`,
      argv: ['/sbin/zfs', 'list', '-H', '-o', 'name', config.tasksDataset],
      plan: [
        {
          argv: [
            ...['/sbin/zfs', 'create', '-p', '-o', `mountpoint=${config.jailsRoot}`],
            config.tasksDataset,
          ],
        },
      ],
    }),
    ensure({
      id: 'hostd-directories',
      title: 'hostd run and log directories',
      argv: ['/bin/test', '-d', config.logDir],
      plan: [{ argv: ['/usr/bin/install', '-d', '-m', '0700', config.runDir, config.logDir] }],
    }),
    ensure({
      id: 'template-snapshot',
      title: `template snapshot ${snapshot}`,
      argv: ['/sbin/zfs', 'list', '-H', '-o', 'name', '-t', 'snapshot', snapshot],
      plan: [{ argv: ['/sbin/zfs', 'snapshot', snapshot] }],
    }),
  ];
}

/** The template jail; its network is decided only when it has to be made. */
function templateJail(
  config: FreeBsdSetupConfig,
  rootDataset: string,
  create: (ip: string, iface: string) => PlanCommand,
): SetupStep {
  const argv = ['/sbin/zfs', 'list', '-H', '-o', 'name', rootDataset];
  return {
    id: 'template-jail',
    title: `thick VNET template jail "${config.templateName}"`,
    async check(context) {
      const result = await probe(context, argv);
      const detail = `${argv.join(' ')} → exit ${result.exitCode}`;
      if (result.exitCode === 0) return { done: true, detail, plan: [] };
      const network = await resolveTemplateNetwork(context, config);
      if ('problem' in network) return { done: false, detail, plan: [], hint: network.problem };
      return { done: false, detail, plan: [create(network.ip, network.iface)] };
    },
  };
}

function templatePackages(
  config: FreeBsdSetupConfig,
  root: string,
  plan: PlanCommand[],
): SetupStep {
  return {
    id: 'template-packages',
    title: `packages in the template: ${config.packages.join(' ')}`,
    async check(context) {
      const missing: string[] = [];
      for (const pkg of config.packages) {
        const argv = ['/usr/sbin/pkg', '-r', root, 'info', '-e', pkg];
        if ((await probe(context, argv)).exitCode !== 0) missing.push(pkg);
      }
      return {
        done: missing.length === 0,
        detail: missing.length === 0 ? 'all installed' : `missing: ${missing.join(' ')}`,
        plan,
      };
    },
  };
}
