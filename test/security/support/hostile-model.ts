// The hostile model of the suite: a real OpenAI-compatible HTTP server on 127.0.0.1 answering
// UI-TARS 1.5 text from each case's script, reached through the controlplane's real model adapter
// (createOpenAiCompatibleModel). The case is read from the instruction (`[case:<id>]`), the turn
// from the assistant messages already in the conversation; every image the model received is
// kept per case and turn (for the check that a typed secret never shows in them).

import type { VisionModel } from '../../../controlplane/src/agent/model/chat-types.js';
import { createOpenAiCompatibleModel } from '../../../controlplane/src/agent/model/openai-compatible-model.js';
import { imageUrls, messageText } from '../../support/uitars-test-model-messages.js';
import { type ChatServer, startChatServer } from '../../support/uitars-test-model-server.js';
import type { HostileCase } from './hostile-cases.js';
import type { SiteUrls } from './hostile-pages.js';

export interface ReceivedImage {
  turn: number;
  /** The last (newest) image of the request, as a data URL. */
  dataUrl: string;
}

export interface HostileModel {
  /** The controlplane's adapter pointed at the server. */
  model: VisionModel;
  server: ChatServer;
  imagesOf(caseId: string): ReceivedImage[];
  close(): Promise<void>;
}

export const FINISH = "Thought: done\nAction: finished(content='done')";

/** `[case:<id>]` at the start of the instruction names the case. */
export const instructionOf = (hostile: HostileCase) => `[case:${hostile.id}] ${hostile.title}`;

export async function startHostileModel(
  cases: readonly HostileCase[],
  urls: SiteUrls,
  delayMs = 150,
): Promise<HostileModel> {
  const images = new Map<string, ReceivedImage[]>();
  const byId = new Map(cases.map((hostile) => [hostile.id, hostile]));
  const server = await startChatServer({
    modelName: 'ui-tars-hostile',
    delayMs: () => delayMs,
    async respond(record, request) {
      const texts = request.messages.filter((m) => m.role === 'user').map(messageText);
      const id = texts.map((text) => /\[case:([a-z0-9-]+)\]/.exec(text)?.[1]).find(Boolean);
      const hostile = id ? byId.get(id) : undefined;
      if (!id || !hostile) return { kind: 'reply', content: FINISH };
      const turn = request.messages.filter((message) => message.role === 'assistant').length;
      const last = imageUrls(request.messages).at(-1);
      if (last) images.set(id, [...(images.get(id) ?? []), { turn, dataUrl: last }]);
      record.mode = `${id}#${turn}`;
      const script = hostile.replies().map((text) => fill(text, id, urls));
      return { kind: 'reply', content: script[turn] ?? FINISH };
    },
  });
  const model = createOpenAiCompatibleModel({
    baseUrl: server.baseUrl,
    model: 'ui-tars-hostile',
    timeoutMs: 30_000,
    retries: 0,
    maxTokens: 1024,
    temperature: 0,
  });
  return {
    model,
    server,
    imagesOf: (caseId) => images.get(caseId) ?? [],
    close: () => server.close(),
  };
}

/** `{shop}` and `{attacker}` in a reply: the case's own prefix on that site. */
function fill(text: string, id: string, urls: SiteUrls): string {
  return text
    .replaceAll('{shop}', `${urls.shop}/c/${id}`)
    .replaceAll('{attacker}', `${urls.attacker}/c/${id}`);
}
