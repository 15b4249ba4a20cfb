// A parent process for process-launcher.contract.ts: makes the launcher named by argv[2]
// (`spawn`: SpawnLauncher; `controlplane`: the controlplane's launcher), launches one child with
// the guard named by argv[3], prints `{ pid, parentDeathSignal }` as one JSON line and then lives
// until it is killed. Guards: `pdeathsig` (parentDeathSignal SIGKILL on `sleep 60`), `stdin`
// (keepStdinOpen on `cat`, which exits at EOF), `record` (no guard on `sleep 60`, the registry
// recording its children in the directory argv[4]).
import { ChildRegistry, type LaunchOptions, SpawnLauncher } from '@clawdie/kit/runner';
import { childEnvironment } from '../../../../controlplane/src/platform/runner/child-environment.js';
import { createControlplaneLauncher } from '../../../../controlplane/src/platform/runner/process-launcher.js';

const [kind, guard, directory] = process.argv.slice(2);
const registry = new ChildRegistry();
if (guard === 'record' && directory) registry.recordIn(directory);
const options: Omit<LaunchOptions, 'env'> =
  guard === 'pdeathsig'
    ? { argv: ['/bin/sleep', '60'], parentDeathSignal: 'SIGKILL' }
    : guard === 'stdin'
      ? { argv: ['/bin/cat'], keepStdinOpen: true }
      : { argv: ['/bin/sleep', '60'] };
const env = childEnvironment({});
const child =
  kind === 'controlplane'
    ? await createControlplaneLauncher(registry).launch({ ...options, env })
    : await new SpawnLauncher(registry).launch({ ...options, env });
process.stdout.write(
  `${JSON.stringify({ pid: child.pid, parentDeathSignal: child.parentDeathSignal })}\n`,
);
setInterval(() => {}, 60_000);
