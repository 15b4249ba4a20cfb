// A keep-alive HTTP load generator run as its own process: `concurrency` clients loop on GET url
// for `seconds`, then print {requests, errors, seconds, statuses} as JSON on stdout.
import { Agent, request } from 'node:http';

const [url = '', concurrencyArg = '200', secondsArg = '10'] = process.argv.slice(2);
const concurrency = Number(concurrencyArg);
const seconds = Number(secondsArg);
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
const deadline = performance.now() + seconds * 1000;
let requests = 0;
let errors = 0;
const statuses: Record<number, number> = {};

function once(): Promise<void> {
  return new Promise((resolve) => {
    const req = request(url, { agent }, (response) => {
      statuses[response.statusCode ?? 0] = (statuses[response.statusCode ?? 0] ?? 0) + 1;
      response.resume();
      response.on('end', () => {
        requests += 1;
        resolve();
      });
    });
    req.on('error', () => {
      errors += 1;
      resolve();
    });
    req.end();
  });
}

async function client(): Promise<void> {
  while (performance.now() < deadline) await once();
}

const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, client));
const elapsed = (performance.now() - started) / 1000;
agent.destroy();
console.log(JSON.stringify({ requests, errors, seconds: elapsed, statuses }));
