// A task's downloaded files as MCP resources (issue 23): the tool result links each one
// (`resource_link`), and `resources/read` of `clawdie://tasks/{task_id}/artifacts/{name}` returns
// its bytes to a caller who may read the task (another tenant's task reads as not found).
import { readFile } from 'node:fs/promises';
import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, type ResourceLink } from '@modelcontextprotocol/sdk/types.js';
import { type Principal, visibleTenant } from '../../governance/auth/scopes.js';
import type { ArtifactFiles, StoredArtifact } from '../../platform/store/artifact-files.js';
import type { TaskRepository } from '../../platform/store/task-repository.js';
import type { Artifact } from '../../tasks/task-input.js';

/** Where MCP finds a task's artifacts: the task (for its tenant) and the stored files. */
export interface McpArtifactSource {
  repository: Pick<TaskRepository, 'getTask'>;
  files: Pick<ArtifactFiles, 'list'>;
}

export const artifactUri = (taskId: string, name: string) =>
  `clawdie://tasks/${encodeURIComponent(taskId)}/artifacts/${encodeURIComponent(name)}`;

/** The result's `resource_link` content items, one per artifact. */
export function artifactLinks(taskId: string, artifacts: readonly Artifact[]): ResourceLink[] {
  return artifacts.map((artifact) => ({
    type: 'resource_link',
    uri: artifactUri(taskId, artifact.name),
    name: artifact.name,
    mimeType: artifact.mime,
    description: `downloaded by the task (${artifact.bytes} bytes, sha256 ${artifact.sha256})`,
  }));
}

export function registerArtifactResources(
  server: McpServer,
  source: McpArtifactSource,
  principal: Principal,
): void {
  const template = new ResourceTemplate('clawdie://tasks/{task_id}/artifacts/{name}', {
    list: undefined,
  });
  const metadata = {
    title: 'A file a task downloaded',
    description: 'The bytes of one artifact of a browser_run_task result (resource_link).',
  };
  server.registerResource('task-artifact', template, metadata, async (uri, variables) => {
    const taskId = decodeURIComponent(String(variables.task_id ?? ''));
    const name = decodeURIComponent(String(variables.name ?? ''));
    const artifact = await find(source, principal, taskId, name);
    const bytes = await readFile(artifact.path).catch(() => {
      throw notFound(uri.href);
    });
    return {
      contents: [{ uri: uri.href, mimeType: artifact.mime, blob: bytes.toString('base64') }],
    };
  });
}

async function find(
  source: McpArtifactSource,
  principal: Principal,
  taskId: string,
  name: string,
): Promise<StoredArtifact> {
  const task = await source.repository.getTask(taskId, visibleTenant(principal));
  const artifact = task && (await source.files.list(task.id)).find((one) => one.name === name);
  if (!artifact) throw notFound(`clawdie://tasks/${taskId}/artifacts/${name}`);
  return artifact;
}

const notFound = (uri: string) => new McpError(ErrorCode.InvalidParams, `no such artifact: ${uri}`);
