// Adapter: answers the file choosers of a tab (CDP `Page.setInterceptFileChooserDialog`, the
// `Page.fileChooserOpened` event) through the upload store: with a file the task provided
// (`DOM.setFileInputFiles`, now or once the controlplane decides a held one); with no file
// provided the chooser is left unanswered, i.e. cancelled, and listed as such.
import type { Logger } from 'pino';
import type { CDPSession, Page } from 'puppeteer-core';
import type { UploadStore } from '../uploads/upload-store.js';

const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
};

/** Turns interception on for the tab and answers each chooser it opens. Never throws. */
export function answerFileChoosers(store: UploadStore, logger: Logger) {
  return (page: Page, session: CDPSession): void => {
    session.on('Page.fileChooserOpened', (event) => {
      store.track(
        answer(page, session, event.backendNodeId).catch((error: unknown) =>
          logger.warn({ err: error }, 'a file chooser could not be answered'),
        ),
      );
    });
    void session
      .send('Page.setInterceptFileChooserDialog', { enabled: true })
      .catch((error: unknown) => logger.warn({ err: error }, 'file choosers are not intercepted'));
  };

  async function answer(page: Page, session: CDPSession, backendNodeId: number | undefined) {
    const accept = backendNodeId ? await acceptOf(session, backendNodeId) : '';
    await store.answer({ accept, origin: originOf(page.url()) }, async (path) => {
      if (!backendNodeId) throw new Error('the chooser has no input element');
      await session.send('DOM.setFileInputFiles', { files: [path], backendNodeId });
    });
  }
}

async function acceptOf(session: CDPSession, backendNodeId: number): Promise<string> {
  const { object } = await session.send('DOM.resolveNode', { backendNodeId });
  if (!object.objectId) return '';
  const { result } = await session.send('Runtime.callFunctionOn', {
    objectId: object.objectId,
    functionDeclaration: 'function () { return String(this.accept || ""); }',
    returnByValue: true,
  });
  await session.send('Runtime.releaseObject', { objectId: object.objectId }).catch(() => undefined);
  return typeof result.value === 'string' ? result.value : '';
}
