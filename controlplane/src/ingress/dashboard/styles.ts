/** The dashboard's one stylesheet: served at /dashboard/assets/dashboard.css and inlined in exports. */
export const dashboardCss = `
:root{--fg:#1c2230;--muted:#5b6578;--line:#dde2ea;--bg:#f5f7fa;--card:#fff;--accent:#2454c5;
--ok:#1d7a46;--warn:#9a5b00;--bad:#b3261e;--info:#2454c5;--mark:#ff00aa;color-scheme:light}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #8fb0ff;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:4px 8px;z-index:9}
header.top{display:flex;flex-wrap:wrap;align-items:center;gap:8px 24px;padding:10px 24px;background:#141a26;color:#fff}
header.top .brand{font-weight:700;letter-spacing:.02em;color:#fff;text-decoration:none}
header.top nav ul{display:flex;flex-wrap:wrap;gap:4px;list-style:none;margin:0;padding:0}
header.top nav a{color:#c9d3e6;text-decoration:none;padding:6px 10px;border-radius:6px}
header.top nav a[aria-current=page]{background:#2a3447;color:#fff}
header.top form{margin-left:auto}
header.top button{background:transparent;color:#c9d3e6;border:1px solid #3a465e}
main{max-width:1200px;margin:0 auto;padding:20px 24px 48px}
h1{font-size:1.45rem;margin:.2em 0 .6em}h2{font-size:1.1rem;margin:1.4em 0 .5em}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:16px 18px;margin:0 0 16px}
table{width:100%;border-collapse:collapse;background:var(--card);border:1px solid var(--line);border-radius:10px;overflow:hidden}
th,td{text-align:left;padding:8px 12px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);background:#fafbfc}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
tbody tr:hover{background:#f8faff}
.instr{max-width:520px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;display:block}
.muted{color:var(--muted)}.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.86em}
.badge{display:inline-block;padding:1px 9px;border-radius:999px;font-size:.78rem;font-weight:600;border:1px solid currentColor;white-space:nowrap}
.s-finished,.s-ok,.s-acted{color:var(--ok)}.s-running,.s-queued,.s-paused{color:var(--info)}.s-needs_user,.s-awaiting_approval{color:var(--warn,#b45309);font-weight:600}
.s-max_steps,.s-call_user,.s-skipped,.s-refused,.s-result_invalid,.s-pending{color:var(--warn)}
.s-approved{color:var(--ok)}.s-denied{color:var(--bad)}.s-expired{color:var(--muted)}
.s-error,.s-aborted,.s-parse_error,.s-plan_error,.s-action_error,.s-error_env,.s-failed{color:var(--bad)}
form.filters{display:flex;flex-wrap:wrap;gap:10px;align-items:end;margin-bottom:12px}
label{display:flex;flex-direction:column;font-size:.82rem;color:var(--muted);gap:2px}
input,select,button{font:inherit;padding:6px 10px;border:1px solid #b9c2d0;border-radius:6px;background:#fff;color:var(--fg)}
button,.button{cursor:pointer;background:var(--accent);color:#fff;border-color:var(--accent);text-decoration:none;display:inline-block;padding:6px 12px;border-radius:6px}
button.secondary,.button.secondary{background:#fff;color:var(--fg);border:1px solid #b9c2d0}
button.danger{background:var(--bad);border-color:var(--bad)}
.counts{display:flex;gap:8px;flex-wrap:wrap;margin:0 0 12px;padding:0;list-style:none}
.counts a{text-decoration:none}
.pager{display:flex;gap:12px;align-items:center;margin-top:12px}
dl.facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:4px 16px;margin:0}
dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;min-width:0;overflow-wrap:break-word}
pre{background:#f1f3f7;border:1px solid var(--line);border-radius:6px;padding:8px 10px;overflow:auto;white-space:pre-wrap;word-break:break-word;margin:4px 0}
ol.timeline{list-style:none;padding:0;margin:0}
.step{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:18px}
@media (max-width:900px){.step{grid-template-columns:1fr}}
.step h3{margin:0 0 6px;font-size:1rem;display:flex;gap:10px;align-items:center}
.shot{position:relative;display:inline-block;max-width:100%;line-height:0;border:1px solid var(--line);border-radius:6px;overflow:hidden;background:#000}
.shot img{display:block;max-width:100%;height:auto}
.shot svg.overlay{position:absolute;inset:0;width:100%;height:100%;pointer-events:none}
.marker{fill:rgba(255,0,170,.18);stroke:var(--mark);stroke-width:4}
.marker-dot{fill:var(--mark)}.marker-line{stroke:var(--mark);stroke-width:4;fill:none}
svg.timing{width:100%;height:10px;display:block;border-radius:3px;background:#eef1f6}
.t-capture{fill:#7a8ca8}.t-model{fill:#2454c5}.t-execute{fill:#1d7a46}
.legend{display:flex;gap:12px;font-size:.82rem;color:var(--muted);margin-top:4px}
.legend i{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px;vertical-align:-1px}
.legend .capture{background:#7a8ca8}.legend .model{background:#2454c5}.legend .execute{background:#1d7a46}
.actions-list{margin:4px 0;padding-left:18px}
.controls{display:flex;gap:8px;align-items:center;flex-wrap:wrap;margin:0 0 14px}
.controls form{margin:0}
.card>h2:first-child{margin-top:0}
.replay-bar{display:flex;gap:10px;align-items:center;margin-bottom:12px}
.replay-bar .grow{flex:1}.replay-bar input[type=range]{width:100%}
.live{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:18px}
@media (max-width:900px){.live{grid-template-columns:1fr}}
.live img.screen{width:100%;height:auto;border:1px solid var(--line);border-radius:6px;background:#000;min-height:120px}
.spaced{margin-top:16px}
.login{max-width:380px;margin:10vh auto}
.login form{display:flex;flex-direction:column;gap:12px}
.notice{border-left:4px solid var(--warn);background:#fff8ec;padding:8px 12px;border-radius:4px}
div.notice[data-live-takeover]{margin:0 0 16px}
.error-text{color:var(--bad)}
tr.bad-row{background:#fdecea;outline:2px solid var(--bad)}
code.mono{word-break:break-all}
code.json{white-space:pre-wrap;word-break:normal;overflow-wrap:anywhere}
ol.approvals{list-style:none;margin:0;padding:0}
.approval{display:grid;grid-template-columns:minmax(0,2fr) minmax(0,3fr);gap:18px;align-items:start}
@media (max-width:900px){.approval{grid-template-columns:1fr}}
.approval h2{margin:0 0 10px;font-size:1.05rem;display:flex;gap:10px;align-items:baseline}
.approval-shot img{display:block;width:100%;height:auto;border:1px solid var(--line);border-radius:6px;background:#000}
.approval-shot .shot{display:block}
.approval-shot .shot img{border:0;border-radius:0}
form.decide{display:flex;gap:10px;margin-top:14px}
form.decide button{min-width:96px}
table.recent td>time{white-space:nowrap}
@media (max-width:700px){
header.top{padding:8px 12px;gap:6px 12px}
header.top nav{order:3;flex-basis:100%}
header.top nav a{display:inline-block;padding:6px 8px}
main{padding:14px 12px 40px}
table{display:block;overflow-x:auto;max-width:100%}
table.cards,table.cards tbody,table.cards tr,table.cards td{display:block}
table.cards{overflow:visible;border:0;background:none}
table.cards thead{display:none}
table.cards tr{background:var(--card);border:1px solid var(--line);border-radius:10px;margin:0 0 10px;padding:6px 12px}
table.cards td{border:0;padding:2px 0;text-align:left}
table.cards .instr{white-space:normal;max-width:none}
table.cards td[data-label]::before{content:attr(data-label) ": ";color:var(--muted);font-size:.78rem;text-transform:uppercase;letter-spacing:.04em}
dl.facts{grid-template-columns:minmax(0,1fr)}dl.facts dd{margin-bottom:6px}
}
`;
