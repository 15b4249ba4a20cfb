import { liveScript } from './live-page.js';
import { replayScript } from './replay.js';
import { dashboardCss } from './styles.js';

/** The dashboard's static files, kept in code so a compiled build needs no asset folder. */
export const dashboardAssets: Record<string, { type: string; body: string }> = {
  'dashboard.css': { type: 'text/css; charset=utf-8', body: dashboardCss },
  'replay.js': { type: 'text/javascript; charset=utf-8', body: replayScript },
  'live.js': { type: 'text/javascript; charset=utf-8', body: liveScript },
};
