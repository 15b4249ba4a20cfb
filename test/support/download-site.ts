// A local site of download traps (issue 23): a link to a PDF, a POST answered with a
// `Content-Disposition: attachment` CSV, a blob: URL built by script, 50 MiB files over any sane
// per-file limit (with and without Content-Length), an executable, and a sized PDF for the bench.
// Each trap is a 300×50 button at a known place (`TRAP_POINTS`).
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { htmlPage } from './static-site.js';

export const BIG_BYTES = 50 * 1024 * 1024;
export const TRAPS = ['pdf', 'post', 'blob', 'big', 'bigChunked', 'exe'] as const;
export type Trap = (typeof TRAPS)[number];

/** Where to click for each trap (CSS pixels). */
export const TRAP_POINTS: Readonly<Record<Trap, { x: number; y: number }>> = Object.fromEntries(
  TRAPS.map((trap, index) => [trap, { x: 150, y: 25 + 60 * index }]),
) as Record<Trap, { x: number; y: number }>;

export interface ExpectedFile {
  name: string;
  bytes: number;
  sha256: string;
  mime: string;
}

export interface DownloadSite {
  url: string;
  /** The files the allowed traps deliver, by trap. */
  expected: Readonly<Record<'pdf' | 'post' | 'blob', ExpectedFile>>;
  /**
   * A PDF of `bytes` bytes at `/files/sized.pdf?bytes=N` (made once per size, kept), and a page
   * linking it at the pdf trap's point.
   */
  sized(bytes: number): { url: string; page: string; sha256: string };
  close(): Promise<void>;
}

const sha = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
const pdfOf = (bytes: number) =>
  Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(Math.max(0, bytes - 9))]);

const BLOB_JSON = JSON.stringify({ invoice: 42, lines: [1, 2, 3], note: 'made in the page' });
const CSV = 'order,amount,currency\n1001,49.90,EUR\n1002,12.00,EUR\n1003,7.50,EUR\n';

const STYLE = 'style="display:block;width:300px;height:50px;margin:0;padding:0"';
const BUTTONS: Readonly<Record<Trap, string>> = {
  pdf: `<a id="pdf" href="/files/report.pdf" ${STYLE}>report</a>`,
  post: `<form method="post" action="/export"><input type="hidden" name="range" value="all"><button ${STYLE}>export</button></form>`,
  blob: `<button id="blob" ${STYLE}>blob</button>`,
  big: `<a href="/files/big.bin" ${STYLE}>big</a>`,
  bigChunked: `<a href="/files/big-chunked.bin" ${STYLE}>big, chunked</a>`,
  exe: `<a href="/files/tool.exe" ${STYLE}>exe</a>`,
};

function page(): string {
  const rows = TRAPS.map(
    (trap, index) =>
      `<div style="position:absolute;left:0;top:${60 * index}px;width:300px;height:50px">${BUTTONS[trap]}</div>`,
  );
  const script = `<script>document.getElementById('blob').onclick = () => {
  const url = URL.createObjectURL(new Blob([${JSON.stringify(BLOB_JSON)}], { type: 'text/html' }));
  const a = Object.assign(document.createElement('a'), { href: url, download: 'data.json' });
  document.body.append(a); a.click(); a.remove();
};</script>`;
  return htmlPage('downloads', rows.join('\n') + script);
}

export async function startDownloadSite(): Promise<DownloadSite> {
  // Declared as image/png: the jail-service must sniff it as a PDF anyway.
  const report = pdfOf(200 * 1024);
  const exe = Buffer.concat([Buffer.from('MZ\x90\x00'), randomBytes(4096)]);
  const sizes = new Map<number, Buffer>();
  const sizedFile = (bytes: number) => {
    const file = sizes.get(bytes) ?? pdfOf(bytes);
    sizes.set(bytes, file);
    return file;
  };
  const attachment = (response: ServerResponse, name: string, type: string, body: Buffer) => {
    response.writeHead(200, {
      'content-type': type,
      'content-length': String(body.length),
      'content-disposition': `attachment; filename="${name}"`,
    });
    response.end(body);
  };
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://site');
    if (url.pathname === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(page());
    } else if (url.pathname === '/sized') {
      // A page whose pdf trap links a PDF of ?bytes=N (the bench's 20 MiB file).
      const link = `<a href="/files/sized.pdf?bytes=${Number(url.searchParams.get('bytes'))}" ${STYLE}>file</a>`;
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(htmlPage('sized', link));
    } else if (url.pathname === '/files/report.pdf') {
      attachment(response, 'report.pdf', 'image/png', report);
    } else if (request.method === 'POST' && url.pathname === '/export') {
      request.resume();
      request.on('end', () => attachment(response, 'orders.csv', 'text/csv', Buffer.from(CSV)));
    } else if (url.pathname === '/files/tool.exe') {
      attachment(response, 'tool.exe', 'application/pdf', exe);
    } else if (url.pathname === '/files/sized.pdf') {
      const bytes = Number(url.searchParams.get('bytes'));
      attachment(response, `sized-${bytes}.pdf`, 'application/pdf', sizedFile(bytes));
    } else if (url.pathname === '/files/big.bin' || url.pathname === '/files/big-chunked.bin') {
      streamBig(response, url.pathname === '/files/big.bin');
    } else {
      response.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const csv = Buffer.from(CSV);
  const json = Buffer.from(BLOB_JSON);
  return {
    url: base,
    expected: {
      pdf: {
        name: 'report.pdf',
        bytes: report.length,
        sha256: sha(report),
        mime: 'application/pdf',
      },
      post: { name: 'orders.csv', bytes: csv.length, sha256: sha(csv), mime: 'text/csv' },
      blob: { name: 'data.json', bytes: json.length, sha256: sha(json), mime: 'application/json' },
    },
    sized: (bytes) => ({
      url: `${base}/files/sized.pdf?bytes=${bytes}`,
      page: `${base}/sized?bytes=${bytes}`,
      sha256: sha(sizedFile(bytes)),
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * 50 MiB of zeros, 1 MiB every 10 ms (a fast link, yet slow enough that a cancel lands before the
 * end); stops when the client goes away.
 */
function streamBig(response: ServerResponse, withLength: boolean): void {
  response.writeHead(200, {
    'content-type': 'application/pdf',
    'content-disposition': 'attachment; filename="big.bin"',
    ...(withLength ? { 'content-length': String(BIG_BYTES) } : {}),
  });
  const chunk = Buffer.alloc(1024 * 1024);
  let sent = 0;
  const timer = setInterval(() => {
    if (response.destroyed || sent >= BIG_BYTES) {
      clearInterval(timer);
      if (!response.destroyed) response.end();
      return;
    }
    sent += chunk.length;
    response.write(chunk);
  }, 10);
  response.on('close', () => clearInterval(timer));
}
