// A fake UI-TARS server for the golden-coordinate tests: OpenAI chat completions with the plain
// `Thought: … Action: …` text UI-TARS writes. It finds the marker in the newest image it received
// and answers a click on it as the model family does — UI-TARS-1.5: absolute pixels of that image
// in `<|box_start|>(x,y)<|box_end|>`; UI-TARS-1.0: a small `[x1, y1, x2, y2]` box on the 0–1000
// grid (uitars-protocol.md §3). The next request is answered `finished(content='done')`.
import { imageUrls } from '../uitars-test-model-messages.js';
import { startChatServer } from '../uitars-test-model-server.js';
import { findMarker } from './find-marker.js';
import type { GoldenRequest, GoldenServer, GoldenServerOptions } from './golden-types.js';

export function startUiTarsGolden(
  version: '1.5' | '1.0',
  options: GoldenServerOptions = {},
): Promise<GoldenServer> {
  return startGolden(version, options);
}

async function startGolden(
  version: '1.5' | '1.0',
  { codec, apiKey, poseAs }: GoldenServerOptions,
): Promise<GoldenServer> {
  const requests: GoldenRequest[] = [];
  const server = await startChatServer({
    modelName: `ui-tars-${version}-golden`,
    ...(apiKey ? { apiKey } : {}),
    ...(poseAs ? { poseAs } : {}),
    delayMs: () => 0,
    async respond(record) {
      const newest = imageUrls(record.messages).at(-1);
      if (!newest) return { kind: 'error', status: 400, message: 'no image in the request' };
      const found = await findMarker(newest, codec);
      const seen = {
        path: record.path,
        body: record.body,
        bodyBytes: record.bodyBytes,
        image: { width: found.width, height: found.height, format: found.format },
        marker: found.centre,
      };
      if (requests.length > 0 || !found.centre) {
        requests.push({ ...seen, answered: null });
        return { kind: 'reply', content: "Thought: Clicked it.\nAction: finished(content='done')" };
      }
      const { x, y } = found.centre;
      if (version === '1.5') {
        const at = { x: Math.round(x), y: Math.round(y) };
        requests.push({ ...seen, answered: at });
        return {
          kind: 'reply',
          content: `Thought: The magenta square.\nAction: click(start_box='<|box_start|>(${at.x},${at.y})<|box_end|>')`,
        };
      }
      const rx = Math.round((x / found.width) * 1000);
      const ry = Math.round((y / found.height) * 1000);
      requests.push({ ...seen, answered: { x: rx, y: ry } });
      return {
        kind: 'reply',
        content: `Thought: The magenta square.\nAction: click(start_box='[${rx - 2}, ${ry - 2}, ${rx + 2}, ${ry + 2}]')`,
      };
    },
  });
  return { url: server.baseUrl, requests, close: () => server.close() };
}
