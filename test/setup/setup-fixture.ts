// Scripted hosts for the setup tests: a RecordingRunner whose prerequisites pass and whose
// state checks report "missing" (a fresh host) or "present" (an already prepared host).

import { setupSteps } from '../../setup/src/cli.js';
import { formatEvent } from '../../setup/src/cli-output.js';
import { loadSetupConfig, type SetupConfig } from '../../setup/src/config.js';
import { runSetup, type SetupResult } from '../../setup/src/run-setup.js';
import { RecordingRunner, type ScriptedReply } from '../support/recording-runner.js';

export function config(os: 'freebsd' | 'linux', dryRun = false): SetupConfig {
  return loadSetupConfig({}, { os, 'dry-run': dryRun }, os, '/opt/clawdie');
}

/** `route -n get default` as sbin/route/route.c print_getmsg() prints it (FreeBSD 14). */
export const DEFAULT_ROUTE = [
  '   route to: default',
  'destination: default',
  '       mask: default',
  '    gateway: 192.0.2.1',
  '        fib: 0',
  '  interface: vtnet0',
  '      flags: <UP,GATEWAY,DONE,STATIC>',
  ' recvpipe  sendpipe  ssthresh  rtt,msec    mtu        weight    expire',
  '       0         0         0         0      1500         1         0 ',
  '',
].join('\n');

/** Prerequisites a human fixes: satisfied on the scripted host. */
export const prerequisitesMet: ScriptedReply[] = [
  { match: '/usr/bin/uname -s', reply: { stdout: 'FreeBSD\n' } },
  { match: '/usr/bin/id -u', reply: { stdout: '0\n' } },
  { match: /^\/sbin\/sysctl -n /, reply: { stdout: '1\n' } },
  { match: '/sbin/pfctl -s info', reply: { stdout: 'Status: Enabled for 0 days\n' } },
  {
    match: '/sbin/pfctl -sr',
    reply: { stdout: 'anchor "hostd/*" all\nblock drop log quick on hostdtask all\n' },
  },
  {
    match:
      '/bin/test -f /opt/clawdie/jail-service/dist/main.js -a -f /opt/clawdie/kit/dist/jail-api/index.js',
    reply: {},
  },
  // The template's network: a DHCP host whose default route leaves by vtnet0.
  { match: '/sbin/route -n get default', reply: { stdout: DEFAULT_ROUTE } },
  { match: '/usr/sbin/sysrc -n ifconfig_vtnet0', reply: { stdout: 'DHCP\n' } },
  // The controlplane's host user exists (its creation: setup.test.ts).
  {
    match: '/usr/sbin/pw usershow clawdie',
    reply: { stdout: 'clawdie:*:1001:1001::0:0:Clawdie:/nonexistent:/usr/sbin/nologin\n' },
  },
];

export const linuxPrerequisitesMet: ScriptedReply[] = [
  { match: '/usr/bin/uname -s', reply: { stdout: 'Linux\n' } },
  { match: '/bin/test -x /usr/bin/chromium', reply: {} },
  { match: '/bin/test -x /usr/lib/chromium/chromium-headless-shell', reply: {} },
  { match: '/usr/bin/stat -f -c %T /sys/fs/cgroup', reply: { stdout: 'cgroup2fs\n' } },
  { match: '/usr/bin/unshare --net /bin/true', reply: {} },
];

/** Every other read-only check says "missing". */
export const everythingMissing: ScriptedReply[] = [
  {
    match: /^\/usr\/sbin\/jls -j browser jid$/,
    reply: { exitCode: 1, stderr: 'jls: jail "browser" not found\n' },
  },
  { match: /^\/usr\/sbin\/sysrc -f \S+ -n /, reply: { stdout: 'NO\n' } },
  { match: /./, reply: { exitCode: 1, stderr: 'missing\n' } },
];

export async function runScripted(
  setup: SetupConfig,
  runner: RecordingRunner,
): Promise<{ result: SetupResult; output: string[] }> {
  const output: string[] = [];
  const result = await runSetup(
    setupSteps(setup),
    { runner, config: setup },
    {
      dryRun: setup.dryRun,
      emit: (event) => {
        const line = formatEvent(event);
        if (line !== null) output.push(line);
      },
    },
  );
  return { result, output };
}

export { RecordingRunner };
