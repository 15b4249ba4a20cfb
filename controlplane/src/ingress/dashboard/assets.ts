import { liveScript } from './live-script.js';
import { replayScript } from './replay.js';
import { dashboardCss } from './styles.js';

/** The site icon (a claw mark): browsers ask for /favicon.ico on every page. */
export const faviconSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1f2937"/><path d="M9 24c3-9 5-14 7-16M15 25c2-8 4-13 7-15M21 25c1-6 3-10 5-12" stroke="#f59e0b" stroke-width="3" fill="none" stroke-linecap="round"/></svg>';

/** The dashboard's static files, kept in code so a compiled build needs no asset folder. */
export const dashboardAssets: Record<string, { type: string; body: string }> = {
  'dashboard.css': { type: 'text/css; charset=utf-8', body: dashboardCss },
  'replay.js': { type: 'text/javascript; charset=utf-8', body: replayScript },
  'live.js': { type: 'text/javascript; charset=utf-8', body: liveScript },
  'favicon.svg': { type: 'image/svg+xml', body: faviconSvg },
};
