// Test helpers: upload a huge body over real HTTP without holding it in memory, time /health
// meanwhile, and sample this process's memory.
import { request } from 'node:http';

export interface StreamOutcome {
  status: number | null;
  body: string;
  /** Bytes the client managed to hand to the socket before the server answered or closed. */
  sentBytes: number;
  error: string | null;
}

/**
 * POSTs `totalBytes` of `fill` to `url` in 64 KiB chunks (with backpressure), chunked or with a
 * declared Content-Length. Stops writing once the response arrives or the socket fails.
 */
export function streamBody(
  url: string,
  options: {
    totalBytes: number;
    chunked: boolean;
    contentType: string;
    headers?: Record<string, string>;
  },
): Promise<StreamOutcome> {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  return new Promise((resolve) => {
    let sentBytes = 0;
    let status: number | null = null;
    let body = '';
    let settled = false;
    let stopped = false;
    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      stopped = true;
      resolve({ status, body, sentBytes, error });
    };
    const req = request(url, {
      method: 'POST',
      agent: false,
      headers: {
        'content-type': options.contentType,
        ...(options.chunked ? {} : { 'content-length': String(options.totalBytes) }),
        ...options.headers,
      },
    });
    req.on('response', (response) => {
      status = response.statusCode ?? null;
      stopped = true;
      response.setEncoding('utf8');
      response.on('data', (text: string) => {
        body += text;
      });
      response.on('end', () => finish(null));
      response.on('error', (error) => finish(error.message));
    });
    req.on('error', (error) => {
      // The server may close the connection while we still write: the answer already arrived.
      if (status !== null) setTimeout(() => finish(null), 50);
      else finish(error.message);
    });
    const pump = () => {
      while (!stopped && sentBytes < options.totalBytes) {
        const part = chunk.subarray(0, Math.min(chunk.length, options.totalBytes - sentBytes));
        sentBytes += part.length;
        if (!req.write(part)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!stopped) req.end();
    };
    pump();
  });
}

/** GETs `url` on a fresh connection every `everyMs` until stopped; reports the slowest answer. */
export function pollLatency(
  url: string,
  everyMs = 50,
): { stop(): Promise<{ maxMs: number; count: number; failures: number }> } {
  let maxMs = 0;
  let count = 0;
  let failures = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const ok = await new Promise<boolean>((resolve) => {
        const req = request(url, { agent: false, timeout: 20_000 }, (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode === 200));
        });
        req.on('timeout', () => req.destroy(new Error('timeout')));
        req.on('error', () => resolve(false));
        req.end();
      });
      maxMs = Math.max(maxMs, performance.now() - started);
      count += 1;
      if (!ok) failures += 1;
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { maxMs, count, failures };
    },
  };
}

/** Samples RSS every `everyMs`; `stop()` returns the peak growth over the baseline, in bytes. */
export function sampleMemory(everyMs = 10): {
  stop(): { peakRssGrowth: number; peakHeapGrowth: number };
} {
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakHeap = base.heapUsed + base.arrayBuffers;
  const timer = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed + now.arrayBuffers);
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return {
        peakRssGrowth: peakRss - base.rss,
        peakHeapGrowth: peakHeap - (base.heapUsed + base.arrayBuffers),
      };
    },
  };
}
