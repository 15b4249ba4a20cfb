// The one launcher and its ChildRegistry: children die with their parent, however it exits.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ChildRegistry, SpawnLauncher } from '@clawdie/kit/runner';

const env = { PATH: '/usr/bin:/bin' };

function running(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return false;
  const text = readFileSync(stat, 'utf8');
  return text.slice(text.lastIndexOf(')') + 2)[0] !== 'Z';
}

async function gone(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 100 && running(pid); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return !running(pid);
}

describe('SpawnLauncher with a ChildRegistry', () => {
  it('tracks a child until it exits, and killAll takes down the ones left', async () => {
    const registry = new ChildRegistry();
    const launcher = new SpawnLauncher(registry);
    const quick = await launcher.launch({ argv: ['/bin/true'], env });
    await quick.exited;
    const slow = await launcher.launch({ argv: ['/bin/sleep', '60'], env, processGroup: true });
    assert.equal(registry.size, 1);
    registry.killAll();
    assert.equal(await slow.exited, null);
    assert.equal(registry.size, 0);
  });

  it('stop() sends SIGTERM and resolves once the child is gone; outputTail keeps stderr', async () => {
    const launcher = new SpawnLauncher(new ChildRegistry());
    const child = await launcher.launch({
      argv: ['/bin/sh', '-c', 'echo started >&2; exec sleep 60'],
      env,
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await child.stop(2000);
    assert.ok(!running(child.pid));
    assert.match(child.outputTail(), /started/);
  });

  for (const mode of ['group', 'single']) {
    it(`a child (${mode}) dies when its parent exits without stopping it`, async () => {
      const script = fileURLToPath(new URL('./support/launch-and-exit.ts', import.meta.url));
      const output = execFileSync(
        process.execPath,
        ['--conditions=source', '--import', 'tsx', script, mode],
        { encoding: 'utf8', timeout: 30_000 },
      );
      const pid = Number(output.trim());
      assert.ok(pid > 0, output);
      assert.ok(await gone(pid), `sleep ${pid} outlived its parent`);
    });
  }
});
