// A capture without the text caret (issue 24, 2): a wait compares captures, and a focused field's
// caret blinks about every 0.5 s, so captures a second apart see it on, on, off at random, a
// change that never settles. A constructed style sheet adopted by the document for the one capture
// makes every caret transparent, then goes again: no DOM node is added (a MutationObserver of the
// page sees nothing) and nothing stays behind if the capture fails. Best effort: a page that broke
// the built-ins it needs just keeps its caret in the image.
import type { CDPSession } from 'puppeteer-core';

const ADOPT = `(() => {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync('* { caret-color: transparent !important; }');
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  return sheet;
})()`;

const DROP = `function () {
  document.adoptedStyleSheets = document.adoptedStyleSheets.filter((sheet) => sheet !== this);
}`;

/** Runs `capture` with every text caret of the page's main document transparent. */
export async function withoutCaret<T>(session: CDPSession, capture: () => Promise<T>): Promise<T> {
  const sheet = await session
    .send('Runtime.evaluate', { expression: ADOPT, returnByValue: false })
    .then((reply) => (reply.exceptionDetails ? undefined : reply.result.objectId))
    .catch(() => undefined);
  try {
    return await capture();
  } finally {
    if (sheet !== undefined) {
      await session
        .send('Runtime.callFunctionOn', { objectId: sheet, functionDeclaration: DROP })
        .catch(() => undefined);
      session.send('Runtime.releaseObject', { objectId: sheet }).catch(() => undefined);
    }
  }
}
