// Issue 12, "What must hold" 5: Chromium's background services are off. A real jail-service
// (main.ts as its own process, as in a clone) launches Chromium behind a recording loopback proxy;
// during start-up, one navigation and 5 s idle the browser asks for no host but the test page's.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { createJailClient, TOKEN } from '../jail-service/jail-harness.js';
import { jailChromiumEnv, requires } from '../support/capabilities.js';
import { JAIL_SERVICE_ARGV } from '../support/current-build.js';
import { startRecordingProxy } from '../support/recording-proxy.js';
import { repositoryRoot } from '../support/repository-root.js';
import { startXvfb, type XvfbDisplay } from '../support/xvfb-process.js';

const root = repositoryRoot;
const PAGE_HOST = 'clawdie-page.test';
const children = new Set<ChildProcess>();
const displays: XvfbDisplay[] = [];

after(async () => {
  for (const child of children) child.kill('SIGKILL');
  for (const display of displays) await display.stop();
});

async function startService(env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, [...JAIL_SERVICE_ARGV], {
    cwd: root,
    env: { PATH: '/usr/bin:/bin', HOME: '/tmp', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.add(child);
  const stderr: string[] = [];
  if (child.stderr)
    createInterface({ input: child.stderr }).on('line', (line) => stderr.push(line));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    for (const line of stderr) {
      const entry = JSON.parse(line) as { msg?: string; url?: string };
      if (entry.msg === 'jail-service listening' && entry.url) return entry.url;
    }
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`jail-service did not start:\n${stderr.join('\n')}`);
}

async function hostsContacted(extraEnv: Record<string, string>): Promise<string[]> {
  const proxy = await startRecordingProxy(PAGE_HOST, '<title>page</title><p>hello</p>');
  try {
    const url = await startService({
      CLAWDIE_JAIL_TOKEN: TOKEN,
      CLAWDIE_JAIL_PORT: '0',
      ...jailChromiumEnv,
      CLAWDIE_JAIL_PROXY: proxy.url,
      CLAWDIE_LOG_LEVEL: 'info',
      ...extraEnv,
    });
    const client = createJailClient(url);
    const result = await client.run([{ type: 'navigate', url: `http://${PAGE_HOST}/` }]);
    assert.equal(result.results[0]?.status, 'ok', JSON.stringify(result));
    await new Promise((resolve) => setTimeout(resolve, 5000));
    assert.ok(proxy.requests.length > 0, 'the browser did not use the proxy at all');
    return proxy.hosts();
  } finally {
    for (const child of children) child.kill('SIGKILL');
    children.clear();
    await proxy.close();
  }
}

describe('Chromium background services (no calls home)', requires('chromium'), () => {
  it('a headless jail-service browser asks for no host but the page during start, navigation and 5 s idle', async () => {
    const hosts = await hostsContacted({});
    assert.deepEqual(
      [...new Set(hosts)].filter((host) => host !== PAGE_HOST),
      [],
      `hosts: ${hosts.join(', ')}`,
    );
  });

  it('a headful jail-service browser (a clone with a display) asks for no host but the page', {
    ...requires('x11'),
  }, async () => {
    const display = await startXvfb({ width: 1280, height: 800 });
    displays.push(display);
    const hosts = await hostsContacted({
      CLAWDIE_JAIL_HEADLESS: 'false',
      DISPLAY: display.display,
    });
    assert.deepEqual(
      [...new Set(hosts)].filter((host) => host !== PAGE_HOST),
      [],
      `hosts: ${hosts.join(', ')}`,
    );
  });
});
