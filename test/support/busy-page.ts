// A page that never stops moving (issue 24, 2): a text field at (100, 100) 400×40 — click into it
// and its caret blinks — a clock ticking every second at the top right, and a blue (#2255aa)
// 400×200 panel at (400, 400) that appears `ms` after load: the page's one real change.
import sharp from 'sharp';
import { htmlPage } from './static-site.js';

export const BUSY_FIELD = { x: 300, y: 120 } as const;

/**
 * `still`: the same page without the clock (the floor: nothing moves but the panel). `via`: at `ms`
 * a grey "loading" bar appears and the page fetches `via`; the panel comes when the reply does.
 */
export const busyPage = (ms: number, { still = false, via = '', clockFrom = '' } = {}) =>
  htmlPage(
    'Busy',
    `<input style="position:absolute;left:100px;top:100px;width:400px;height:40px;font-size:20px">
<div id="clock" style="position:absolute;left:1100px;top:10px;font:bold 32px monospace"></div>
<div id="panel" style="position:absolute;left:400px;top:400px;width:400px;height:200px;background:#2255aa;display:none"></div>
<div id="loading" style="position:absolute;left:100px;top:300px;width:400px;height:40px;background:#888;display:none"></div>
<script>
const clock = document.getElementById('clock');
const offset = ${clockFrom ? `Date.parse('2026-01-01T${clockFrom}Z') - Date.now()` : '0'};
const tick = () => { clock.textContent = new Date(Date.now() + offset).toISOString().slice(11, 19); };
tick(); ${still ? '' : 'setInterval(tick, 1000);'}
const show = (id) => { document.getElementById(id).style.display = 'block'; };
${
  via
    ? `setTimeout(() => { show('loading'); fetch('${via}').then((reply) => reply.text()).then(() => show('panel')); }, ${ms});`
    : `setTimeout(() => show('panel'), ${ms});`
}
</script>`,
  );

/** Whether a screenshot (DPR 1) shows the panel: its centre (600, 500) is the panel's blue. */
export async function showsPanel(jpeg: Buffer): Promise<boolean> {
  const { data } = await sharp(jpeg)
    .extract({ left: 595, top: 495, width: 10, height: 10 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const [r, g, b] = [data[0] ?? 0, data[1] ?? 0, data[2] ?? 0];
  return Math.abs(r - 0x22) < 30 && Math.abs(g - 0x55) < 30 && Math.abs(b - 0xaa) < 30;
}
