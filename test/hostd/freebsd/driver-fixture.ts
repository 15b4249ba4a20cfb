// Builds a FreeBsdDriver on a FakeFreeBSD host with deterministic time and tokens.
import {
  type CloneNamespace,
  DEFAULT_NAMESPACE,
} from '../../../hostd/src/drivers/clone-namespace.js';
import { FreeBsdDriver } from '../../../hostd/src/drivers/freebsd/freebsd-driver.js';
import { defaultFreeBsdLayout } from '../../../hostd/src/drivers/freebsd/names.js';
import type { CloneSpec } from '../../../hostd/src/drivers/jail-driver.js';
import { FakeFreeBSD } from './fake-freebsd.js';

export function createDriver(
  fake: FakeFreeBSD,
  tokenPrefix = 'token',
  namespace: CloneNamespace = DEFAULT_NAMESPACE,
): FreeBsdDriver {
  let counter = 0;
  return new FreeBsdDriver({
    layout: { ...defaultFreeBsdLayout, namespace },
    runner: fake.runner,
    files: fake.files,
    healthCheck: fake.healthCheck,
    now: fake.now,
    sleep: fake.sleep,
    generateToken: () => {
      counter += 1;
      return `${tokenPrefix}-${counter}`;
    },
  });
}

export function spec(taskId = 'task-0007'): CloneSpec {
  return {
    taskId,
    allowedDomains: ['example.com', '*.example.org'],
    limits: { memoryMb: 2048, pids: 256, cpuPercent: 150 },
    display: false,
  };
}

export { FakeFreeBSD };
