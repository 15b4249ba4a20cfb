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
];

export const linuxPrerequisitesMet: ScriptedReply[] = [
  { match: '/usr/bin/uname -s', reply: { stdout: 'Linux\n' } },
  { match: '/bin/test -x /usr/bin/chromium', reply: {} },
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
