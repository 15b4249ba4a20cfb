// A 20 MiB download's copy-out time (issue 23): a real Chromium downloads a 20 MiB PDF into the
// jail-service's per-task directory; the controlplane's copy-out path (GET /downloads/:id through
// the jail-service, streamed to the artifact store with SHA-256, as task-downloads.ts does) is
// timed against a raw HTTP read of the same bytes from the site (hashed too) in the same run.
// Prints p50/p90 of both, the ratio and the browser's own download time.
// Usage: npm run bench:download [-- runs]
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig, startJailService } from '@clawdie/jail-service/server';
import { DEFAULT_DOWNLOAD_KINDS, downloadListSchema } from '@clawdie/kit/jail-api';
import { jailDownloads } from '../controlplane/src/browser/downloads/jail-downloads.js';
import { createArtifactFiles } from '../controlplane/src/platform/store/artifact-files.js';
import { createJailClient } from '../test/jail-service/jail-harness.js';
import { startDownloadSite, TRAP_POINTS } from '../test/support/download-site.js';
import { silentLogger } from '../test/support/silent-logger.js';
import { round, summarise } from './bench-stats.js';

const TOKEN = 'bench-download-token-0123456789abcdef';
const BYTES = 20 * 1024 * 1024;
const runs = Number(process.argv[2] ?? 8);

async function main() {
  const site = await startDownloadSite();
  const file = site.sized(BYTES);
  const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-bench-download-'));
  const service = await startJailService(
    loadConfig({
      CLAWDIE_JAIL_TOKEN: TOKEN,
      CLAWDIE_JAIL_PORT: '0',
      CLAWDIE_CHROMIUM_PATH: process.env.CLAWDIE_CHROMIUM_PATH || '/usr/bin/chromium',
    }),
    silentLogger,
  );
  const client = createJailClient(service.url, TOKEN);
  const downloads = jailDownloads({ url: service.url, token: TOKEN });
  const store = createArtifactFiles(dataDir);
  const samples = { browser: [] as number[], copy: [] as number[], raw: [] as number[] };
  try {
    for (let run = 0; run <= runs; run += 1) {
      await downloads.configure({
        download: 'allowed',
        max_file_bytes: 2 * BYTES,
        max_task_bytes: 2 * BYTES,
        types: [...DEFAULT_DOWNLOAD_KINDS],
      });
      await client.run([{ type: 'navigate', url: file.page }]);
      const clicked = performance.now();
      await client.run([{ type: 'click', ...TRAP_POINTS.pdf }]);
      const entry = await completed(client);
      const browser = performance.now() - clicked;

      const t0 = performance.now();
      const body = await downloads.read(entry.id, AbortSignal.timeout(60_000));
      const saved = await store.save(`bench-${run}`, entry.name, body, entry.bytes);
      const copy = performance.now() - t0;
      if (saved.sha256 !== file.sha256) throw new Error('the copied file differs');

      const t1 = performance.now();
      const raw = new Uint8Array(await (await fetch(file.url)).arrayBuffer());
      const rawHash = createHash('sha256').update(raw).digest('hex');
      const read = performance.now() - t1;
      if (rawHash !== file.sha256) throw new Error('the raw read differs');
      await downloads.clear();
      if (run === 0) continue; // warm-up
      samples.browser.push(browser);
      samples.copy.push(copy);
      samples.raw.push(read);
    }
  } finally {
    await service.close();
    await site.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const copy = summarise(samples.copy);
  const raw = summarise(samples.raw);
  const browser = summarise(samples.browser);
  console.log(`download copy-out: a ${BYTES / 1024 / 1024} MiB PDF, ${runs} runs (+1 warm-up)`);
  console.log(
    `copy-out (jail-service → artifact store, SHA-256) p50 ${copy.p50} ms (p90 ${copy.p90}) | raw HTTP read + SHA-256 p50 ${raw.p50} ms (p90 ${raw.p90}) | ratio ${round(copy.p50 / raw.p50, 2)}`,
  );
  console.log(
    `browser download (click → completed, hashed, sniffed) p50 ${browser.p50} ms (p90 ${browser.p90})`,
  );
}

async function completed(client: ReturnType<typeof createJailClient>) {
  const end = Date.now() + 60_000;
  while (Date.now() < end) {
    const response = await client.fetch('/downloads');
    const [entry] = downloadListSchema.parse(await response.json()).downloads;
    if (entry?.state === 'completed') return entry;
    if (entry?.state === 'refused') throw new Error(`refused: ${entry.refusal}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the download did not complete within 60 s');
}

await main();
