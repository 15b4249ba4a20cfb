// Fixture pages for the real-browser jail-service tests. Each page reports what it observed as
// JSON in document.title, which the tests read back through GET /state.
import { htmlPage, type StaticRoute } from '../support/static-site.js';

const logScript = (initial: string, body: string) => `<script>
const log = ${initial};
const show = () => { document.title = JSON.stringify(log); };
${body}
show();
</script>`;

/** A 200×60 button at (20, 20) counting clicks, double clicks, context menus and hovers. */
const mouse = htmlPage(
  'mouse',
  `<button id="b" style="position:absolute;left:20px;top:20px;width:200px;height:60px">B</button>
${logScript(
  '{ click: 0, dblclick: 0, contextmenu: 0, enter: 0, buttons: [], at: null, gaps: [] }',
  `const b = document.getElementById('b');
let lastClick = null;
b.addEventListener('click', (e) => {
  log.click++; log.at = [e.clientX, e.clientY];
  if (lastClick !== null) log.gaps.push(Math.round(e.timeStamp - lastClick));
  lastClick = e.timeStamp; show();
});
b.addEventListener('dblclick', () => { log.dblclick++; show(); });
b.addEventListener('mousedown', (e) => { log.buttons.push(e.button); show(); });
b.addEventListener('contextmenu', (e) => { e.preventDefault(); log.contextmenu++; show(); });
b.addEventListener('mouseenter', () => { log.enter++; show(); });`,
)}`,
);

/** A full-viewport surface recording pointer events with client coordinates. */
const drag = htmlPage(
  'drag',
  `<div id="pad" style="position:fixed;inset:0;background:#eef"></div>
${logScript(
  '{ down: null, moves: [], up: null }',
  `const pad = document.getElementById('pad');
pad.addEventListener('mousedown', (e) => { log.down = [e.clientX, e.clientY]; show(); });
pad.addEventListener('mousemove', (e) => { if (log.down && !log.up) { log.moves.push([e.clientX, e.clientY]); show(); } });
pad.addEventListener('mouseup', (e) => { log.up = [e.clientX, e.clientY]; show(); });`,
)}`,
);

/** A 300×200 scrollable box at (50, 50) inside a page that also scrolls both ways. */
const scroll = htmlPage(
  'scroll',
  `<div style="width:5000px;height:5000px"></div>
<div id="box" style="position:fixed;left:50px;top:50px;width:300px;height:200px;overflow:auto">
  <div style="width:3000px;height:3000px;background:linear-gradient(45deg,#fff,#00f)"></div>
</div>
${logScript(
  '{ boxTop: 0, boxLeft: 0, pageX: 0, pageY: 0 }',
  `const box = document.getElementById('box');
const update = () => { log.boxTop = box.scrollTop; log.boxLeft = box.scrollLeft; log.pageX = scrollX; log.pageY = scrollY; show(); };
box.addEventListener('scroll', update);
window.addEventListener('scroll', update);`,
)}`,
);

/** A text field in a GET form (submits to /submitted) logging keys and its value. */
const keys = htmlPage(
  'keys',
  `<form action="/submitted" method="get">
  <input id="t" name="q" autocomplete="off" style="position:absolute;left:20px;top:20px;width:400px;height:30px">
</form>
${logScript(
  "{ value: '', down: [], up: [] }",
  `const t = document.getElementById('t');
document.addEventListener('keydown', (e) => { log.down.push(e.key); show(); });
document.addEventListener('keyup', (e) => { log.up.push(e.key); show(); });
t.addEventListener('input', () => { log.value = t.value; show(); });`,
)}`,
);

/** Links at (20, 20), (20, 80), (20, 140), (20, 200): slow page, 204, refused port, a button. */
function links(refusedUrl: string): string {
  const style = 'position:absolute;left:20px;width:200px;height:40px;display:block';
  return htmlPage(
    'links',
    `<a id="slow" href="/slow" style="${style};top:20px">slow</a>
<a id="empty" href="/no-content" style="${style};top:80px">204</a>
<a id="refused" href="${refusedUrl}" style="${style};top:140px">refused</a>
<button id="stay" style="${style};top:200px" onclick="document.title = 'stayed'">stay</button>`,
  );
}

/** A button at (20, 20) that spins forever when clicked. */
const hang = htmlPage(
  'hang',
  `<button style="position:absolute;left:20px;top:20px;width:200px;height:60px" onclick="while (true) {}">hang</button>`,
);

/** A button at (20, 20) that opens an alert, then a confirm, and reports the confirm's answer. */
const dialogs = htmlPage(
  'dialogs',
  `<button style="position:absolute;left:20px;top:20px;width:200px;height:60px"
  onclick="alert('hello'); document.title = 'confirmed:' + confirm('sure?')">dialogs</button>`,
);

export function fixtureRoutes(refusedUrl: string): Record<string, string | StaticRoute> {
  return {
    '/mouse': mouse,
    '/drag': drag,
    '/scroll': scroll,
    '/keys': keys,
    '/links': links(refusedUrl),
    '/hang': hang,
    '/dialogs': dialogs,
    '/a': htmlPage('A', '<p>page a</p>'),
    '/b': htmlPage('B', '<p>page b</p>'),
    '/submitted': htmlPage('submitted', '<p>thanks</p>'),
    '/slow': { body: htmlPage('slow', '<p>finally</p>'), delayMs: 700 },
    '/no-content': { status: 204 },
  };
}
