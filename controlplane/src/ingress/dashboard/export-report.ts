import { readFile } from 'node:fs/promises';
import { html, raw } from 'hono/html';
import type { TaskRecord } from '../../platform/store/task-records.js';
import type { TaskRepository } from '../../platform/store/task-repository.js';
import { badge } from './format.js';
import { replayBody, replayScript } from './replay.js';
import { dashboardCss } from './styles.js';
import { loadStepCards, taskFacts, taskResult } from './task-detail-page.js';

/**
 * A self-contained HTML report of a task: styles and the replay script inline, every screenshot
 * embedded as a data URL, so the single file opens offline from disk.
 */
export async function buildTaskReport(
  repository: TaskRepository,
  task: TaskRecord,
  options: { tenant: string; now: number },
): Promise<string> {
  const images = new Map<string, string>();
  for (const step of await repository.listSteps(task.id)) {
    if (!step.screenshotPath) continue;
    const jpeg = await readFile(step.screenshotPath).catch(() => null);
    if (jpeg) images.set(step.screenshotPath, `data:image/jpeg;base64,${jpeg.toString('base64')}`);
  }
  const cards = await loadStepCards(repository, task, (step) =>
    step.screenshotPath ? (images.get(step.screenshotPath) ?? null) : null,
  );
  const exported = new Date(options.now).toISOString();
  const document = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Clawdie task report · ${task.instruction.slice(0, 60)}</title>
<style>${raw(dashboardCss)}</style>
</head>
<body>
<main id="main">
<h1>Task report ${badge(task.status)}</h1>
<p class="muted">Exported from Clawdie at <time datetime="${exported}">${exported}</time>. This file is self-contained.</p>
<section class="card"><h2>Overview</h2>${taskFacts(task, options.tenant, options.now)}</section>
<section class="card"><h2>Result</h2>${taskResult(task)}</section>
<h2>Replay</h2>
${replayBody(cards)}
</main>
<script>${raw(replayScript)}</script>
</body>
</html>`;
  return String(await document);
}
