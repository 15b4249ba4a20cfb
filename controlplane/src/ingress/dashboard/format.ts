import { html } from 'hono/html';

/** A coloured status or outcome badge; the colour class is `s-<status>`. */
export function badge(status: string) {
  return html`<span class="badge s-${status}">${status.replaceAll('_', ' ')}</span>`;
}

/** `850 ms`, `12.3 s`, `4 min 05 s`; an em dash when unknown. */
export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')} s`;
}

/** A task's run time: started → ended, or → now while it runs. */
export function taskDuration(
  task: { startedAt: number | null; endedAt: number | null },
  now: number,
): string {
  if (task.startedAt === null) return '—';
  return duration((task.endedAt ?? now) - task.startedAt);
}

/** UTC timestamp `2026-11-23 08:03:00` inside a machine-readable <time>. */
export function timestamp(ms: number | null) {
  if (ms === null) return html`<span class="muted">—</span>`;
  const iso = new Date(ms).toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 19).replace('T', ' ')}</time>`;
}

/** Pretty JSON for a <pre>, or null when there is nothing to show. */
export function prettyJson(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return JSON.stringify(value, null, 2);
}
