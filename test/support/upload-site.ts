// A local upload form (issue 23 trap): an `<input type=file>` at (150, 25) and a submit button at
// (150, 85), each 300×50; submitting POSTs the chosen file's bytes to `/upload`, where the server
// hashes what it received and the page then shows "Received <sha256>". Setting a file on the input
// (its `change` event) is reported to `/chosen` at once, before anything is submitted.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { htmlPage } from './static-site.js';

export const UPLOAD_POINTS = { input: { x: 150, y: 25 }, submit: { x: 150, y: 85 } } as const;

export interface UploadSite {
  url: string;
  /** The SHA-256 and size of each body `/upload` received, in order. */
  received: { sha256: string; bytes: number }[];
  /** The name of each file set on the input (its `change` event), in order. */
  chosen: string[];
  close(): Promise<void>;
}

const STYLE = 'display:block;position:absolute;left:0;width:300px;height:50px;margin:0;padding:0';
const PAGE = htmlPage(
  'Upload',
  `<input id="file" type="file" accept=".txt,text/plain" style="${STYLE};top:0">
<button id="send" style="${STYLE};top:60px">send</button>
<p id="out" style="position:absolute;top:120px">nothing sent</p>
<script>document.getElementById('file').onchange = (event) => {
  const file = event.target.files[0];
  if (file) fetch('/chosen?name=' + encodeURIComponent(file.name), { method: 'POST' });
};
document.getElementById('send').onclick = async () => {
  const file = document.getElementById('file').files[0];
  if (!file) { document.getElementById('out').textContent = 'no file chosen'; return; }
  const answer = await fetch('/upload', { method: 'POST', body: file });
  document.getElementById('out').textContent = await answer.text();
};</script>`,
);

export async function startUploadSite(): Promise<UploadSite> {
  const received: UploadSite['received'] = [];
  const chosen: string[] = [];
  const server = createServer((request, response) => {
    if (request.method === 'POST' && request.url?.startsWith('/chosen?')) {
      chosen.push(new URLSearchParams(request.url.slice('/chosen?'.length)).get('name') ?? '');
      response.writeHead(204).end();
      return;
    }
    if (request.method === 'POST' && request.url === '/upload') {
      const hash = createHash('sha256');
      let bytes = 0;
      request.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        bytes += chunk.length;
      });
      request.on('end', () => {
        const sha256 = hash.digest('hex');
        received.push({ sha256, bytes });
        response.writeHead(200, { 'content-type': 'text/plain' }).end(`Received ${sha256}`);
      });
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    chosen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
