// The clone's metadata files in its state directory (root-only, mode 0600): what the OS alone
// cannot tell — the task id, the spec, the service token. Like FreeBSD's dataset properties.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CloneIsolation, CloneService, CloneSpec } from '../jail-driver.js';

export interface CloneMeta {
  spec: CloneSpec;
  isolation: CloneIsolation;
  createdAt: string;
}

export interface ServiceMeta extends CloneService {
  pid: number;
}

export interface StateFiles {
  meta: CloneMeta | null;
  service: ServiceMeta | null;
  display: number | null;
}

export async function readStateFiles(stateDir: string): Promise<StateFiles> {
  const [meta, service, display] = await Promise.all([
    readJson<CloneMeta>(join(stateDir, 'clone.json')),
    readJson<ServiceMeta>(join(stateDir, 'service.json')),
    readJson<{ display: number }>(join(stateDir, 'display.json')),
  ]);
  return { meta, service, display: display?.display ?? null };
}

export function writeMeta(stateDir: string, meta: CloneMeta): Promise<void> {
  return writeJson(join(stateDir, 'clone.json'), meta);
}

export function writeService(stateDir: string, service: ServiceMeta): Promise<void> {
  return writeJson(join(stateDir, 'service.json'), service);
}

export function writeDisplay(stateDir: string, display: number): Promise<void> {
  return writeJson(join(stateDir, 'display.json'), { display });
}

async function readJson<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return null;
  }
}

function writeJson(path: string, value: unknown): Promise<void> {
  return writeFile(path, `${JSON.stringify(value)}\n`, { mode: 0o600 });
}
