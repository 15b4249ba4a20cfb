/**
 * The takeover pages' styles (served from /takeover/assets; the CSP allows no inline style).
 * The live view fits the window: on a phone (one column) the screen is as wide as the page and the
 * "Type into the page" (one row on a phone), the note and Hand back follow it; from 900 px wide the screen fills the left and the controls sit
 * in a column on the right, so nothing of ours needs scrolling (the wheel over the screen goes to
 * the remote page while the supervisor is in control). Inputs use 16 px text, so phones do not
 * zoom in on focus. The red frame marks "in control" and goes when the takeover ends.
 */
export const takeoverCss = `*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f8fafc;color:#111827}
main{max-width:1400px;margin:0 auto;padding:12px 16px}
h1{font-size:1.3rem;margin:.2em 0 .5em}
.banner{background:#b91c1c;color:#fff;padding:8px 14px;border-radius:8px;font-weight:600;margin:0}
.banner.ended{background:#374151}
.muted{color:#6b7280}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.86em;overflow-wrap:anywhere}
main.takeover{display:grid;gap:10px 16px;grid-template-columns:minmax(0,1fr);grid-template-areas:"banner" "info" "stage" "typer" "panel"}
.takeover>.banner{grid-area:banner}
.takeover>.info{grid-area:info;margin:0}
.stage{grid-area:stage;min-width:0;min-height:0;display:flex;justify-content:center;align-items:flex-start}
.screen{display:block;width:auto;height:auto;max-width:100%;max-height:70vh;max-height:70dvh;border:3px solid #b91c1c;border-radius:6px;cursor:crosshair;outline:none;background:#111827;touch-action:manipulation}
.screen:focus{border-color:#f59e0b}
.takeover.ended .screen{border-color:#9ca3af;cursor:default;opacity:.75}
.typer{grid-area:typer;margin:0;display:flex;flex-wrap:wrap;gap:6px;min-width:0}
.typer .typed{display:flex;gap:6px;flex:1 1 12em;min-width:0}
.typer .typed input{flex:1 1 auto;min-width:0;width:100%}
.typer .keys{display:flex;gap:6px;margin-left:auto}
.typer button{padding:8px 11px}
.panel{grid-area:panel;margin:0;display:flex;flex-direction:column;gap:8px;min-width:0}
.panel textarea{width:100%;min-height:3.2em;resize:vertical}
textarea,input{font:inherit;font-size:16px;padding:6px 8px;border:1px solid #9ca3af;border-radius:6px}
fieldset{margin:0;border:1px solid #d1d5db;border-radius:6px;display:flex;flex-direction:column;gap:4px;min-width:0}
label{display:flex;flex-direction:column;font-size:.88rem;color:#374151}
fieldset input{width:100%}
.error{margin:0;color:#b91c1c;font-weight:600}
.done{margin:0;padding:8px 12px;border-radius:6px;background:#ecfdf5;border:1px solid #047857;color:#065f46;font-weight:600}
button{font:inherit;font-size:16px;padding:10px 18px;border-radius:6px;border:0;background:#1d4ed8;color:#fff;cursor:pointer}
button:disabled{background:#9ca3af;cursor:default}
@media (min-width:900px){
main.takeover{height:100vh;height:100dvh;grid-template-columns:minmax(0,1fr) 320px;grid-template-rows:auto auto auto minmax(0,1fr);grid-template-areas:"banner banner" "stage info" "stage typer" "stage panel"}
.screen{max-height:100%}
.panel{overflow:auto}
}
.confirm{max-width:760px}
dl.facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:4px 14px;margin:10px 0}
dl.facts dt{color:#6b7280}dl.facts dd{margin:0;overflow-wrap:break-word;min-width:0}
.question{white-space:pre-wrap;font-weight:600}
.preview{display:block;width:100%;height:auto;border:1px solid #d1d5db;border-radius:6px;background:#111827;margin:8px 0}
.confirm form{margin:12px 0}
@media (max-width:480px){dl.facts{grid-template-columns:minmax(0,1fr)}dl.facts dd{margin-bottom:6px}}`;
