// Fixture pages for the screenshot-freshness suite: each shows a probe square (CSS 40,40 – 120,120)
// in red, and changes it to another colour after an action, in its own way; pages that change
// later than the action returns set `document.title` to "done" once the change is made.
import { htmlPage, type StaticRoute } from '../support/static-site.js';

export const RED = [255, 0, 0] as const;
export const BLUE = [0, 0, 255] as const;
export const GREEN = [0, 160, 0] as const;
/** The probe's centre in CSS pixels. */
export const PROBE = { x: 80, y: 80 } as const;

const probe = (extra = '') =>
  `<div id="probe" style="position:fixed;left:40px;top:40px;width:80px;height:80px;background:rgb(255,0,0);${extra}"></div>`;
const onClick = (script: string) =>
  `<script>addEventListener('click', () => { ${script} });</script>`;

export const screenshotPages: Record<string, string | StaticRoute> = {
  '/sync': htmlPage('sync', probe() + onClick(`probe.style.background = 'rgb(0,0,255)';`)),
  '/transition': htmlPage(
    'transition',
    probe('transition:background-color 300ms linear') +
      onClick(`probe.ontransitionend = () => { document.title = 'done'; };
        probe.style.background = 'rgb(0,0,255)';`),
  ),
  // A canvas animated for 12 frames through greys, ending blue.
  '/canvas': htmlPage(
    'canvas',
    `<canvas id="c" width="400" height="300" style="position:fixed;left:0;top:0"></canvas>
    <script>const g = c.getContext('2d'); g.fillStyle = 'rgb(255,0,0)'; g.fillRect(40, 40, 80, 80);</script>` +
      onClick(`let n = 0; const step = () => {
        n += 1; g.fillStyle = n < 12 ? 'rgb(' + n * 20 + ',' + n * 20 + ',' + n * 20 + ')' : 'rgb(0,0,255)';
        g.fillRect(40, 40, 80, 80);
        if (n < 12) requestAnimationFrame(step); else document.title = 'done'; };
        requestAnimationFrame(step);`),
  ),
  // The change comes with a reply 150 ms after the click.
  '/xhr': htmlPage(
    'xhr',
    probe() +
      onClick(`fetch('/slow').then((r) => r.text()).then(() => {
        probe.style.background = 'rgb(0,0,255)'; document.title = 'done'; });`),
  ),
  '/slow': { body: 'ok', contentType: 'text/plain', delayMs: 150 },
  '/green': htmlPage('green', probe('background:rgb(0,160,0)')),
  '/opener': htmlPage(
    'opener',
    `${probe()}<a href="/green" target="_blank" style="position:fixed;left:150px;top:150px;width:100px;height:60px;display:block;background:#ddd">open</a>`,
  ),
  // Red for the first 3000 px, blue below: scrolling by 3000 px turns the probe area blue.
  '/tall': htmlPage(
    'tall',
    '<div style="height:3000px;background:rgb(255,0,0)"></div><div style="height:3000px;background:rgb(0,0,255)"></div>',
  ),
};
