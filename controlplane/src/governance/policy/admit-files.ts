// A task's input `files` checked at admission (issue 23): uploads allowed by the tenant policy; a
// `path` a regular file whose real path (symlinks resolved) lies inside one of the policy's
// `upload_dirs`, no `..`, within `max_upload_bytes`; an `artifact_of_task` a file an earlier task of
// the SAME tenant stored (another tenant's task reads as no such task). Reads the filesystem
// synchronously, the task store through its port: admission decides before anything starts.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { z } from 'zod';
import type { TaskFile } from '../../tasks/task-input.js';
import type { UploadSource } from '../../tasks/task-plan.js';
import type { TenantPolicy } from './policy-schema.js';

/** What admission reads to find an earlier task's artifact. */
export interface ArtifactLookup {
  /** Whether task `id` exists and belongs to `tenant`. */
  ownsTask(tenant: string, id: string): Promise<boolean>;
  /** The controlplane's data directory (`<data>/traces/<task>/artifacts.json`). */
  dataDir: string;
}

const storedSchema = z.array(z.object({ name: z.string(), path: z.string() }));

/** The files as the task will provide them, or why they are refused. */
export async function resolveTaskFiles(
  files: readonly TaskFile[],
  policy: TenantPolicy['files'],
  tenant: string,
  lookup: ArtifactLookup | undefined,
): Promise<{ files: UploadSource[] } | { reason: string }> {
  if (policy.upload !== 'allowed')
    return { reason: 'files: uploads are off in the tenant policy (files.upload)' };
  const names = new Set<string>();
  const resolved: UploadSource[] = [];
  for (const [index, file] of files.entries()) {
    const where = `files[${index}] (${file.name})`;
    if (names.has(file.name)) return { reason: `${where}: the name is given twice` };
    names.add(file.name);
    const found =
      file.path !== undefined
        ? hostFile(file.path, policy)
        : await artifact(file.name, file.artifact_of_task ?? '', tenant, lookup);
    if ('reason' in found) return { reason: `${where}: ${found.reason}` };
    const bytes = statSync(found.path).size;
    if (bytes > policy.max_upload_bytes)
      return { reason: `${where}: ${bytes} bytes is over files.max_upload_bytes` };
    resolved.push({ name: file.name, path: found.path, bytes });
  }
  return { files: resolved };
}

const inside = (dir: string, path: string) => {
  const rest = relative(dir, path);
  return rest !== '' && !rest.startsWith(`..${sep}`) && rest !== '..' && !isAbsolute(rest);
};

function hostFile(
  path: string,
  policy: TenantPolicy['files'],
): { path: string } | { reason: string } {
  if (!isAbsolute(path)) return { reason: 'path must be absolute' };
  if (path.split(/[/\\]/).includes('..')) return { reason: 'path must not contain ..' };
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return { reason: 'no such file in an upload directory of the tenant policy' };
  }
  const dirs = policy.upload_dirs.flatMap((dir) => {
    try {
      return [realpathSync(dir)];
    } catch {
      return [];
    }
  });
  if (!dirs.some((dir) => inside(dir, real)))
    return { reason: 'no such file in an upload directory of the tenant policy' };
  if (!statSync(real).isFile()) return { reason: 'not a regular file' };
  return { path: real };
}

async function artifact(
  name: string,
  taskId: string,
  tenant: string,
  lookup: ArtifactLookup | undefined,
): Promise<{ path: string } | { reason: string }> {
  const missing = { reason: `no artifact ${name} of task ${taskId}` };
  if (!lookup || !(await lookup.ownsTask(tenant, taskId))) return missing;
  const traceDir = join(lookup.dataDir, 'traces', taskId);
  let stored: z.infer<typeof storedSchema>;
  try {
    stored = storedSchema.parse(JSON.parse(readFileSync(join(traceDir, 'artifacts.json'), 'utf8')));
  } catch {
    return missing;
  }
  const entry = stored.find((candidate) => candidate.name === name);
  if (!entry) return missing;
  // The recorded path is checked to lie in that task's artifact directory.
  try {
    const real = realpathSync(entry.path);
    return inside(realpathSync(join(traceDir, 'artifacts')), real) ? { path: real } : missing;
  } catch {
    return missing;
  }
}
