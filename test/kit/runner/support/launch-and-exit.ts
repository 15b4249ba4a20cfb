// Child of child-registry.test.ts: launches `sleep 60` (in its own group when asked), prints the
// pid and exits at once without stopping it; the registry's exit hook must take it down.
import { ChildRegistry, SpawnLauncher } from '@clawdie/kit/runner';

const launcher = new SpawnLauncher(new ChildRegistry());
const child = await launcher.launch({
  argv: ['/bin/sleep', '60'],
  env: { PATH: '/usr/bin:/bin' },
  processGroup: process.argv[2] === 'group',
});
process.stdout.write(`${child.pid}\n`);
process.exit(0);
