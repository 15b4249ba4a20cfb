// A TCP connection attempt made from inside a clone's network (FreeBSD: node in the jail through
// jexec(8); Linux: node in the clone's network namespace): the probe program, its command-line
// arguments and how its output is read. `--verify-host` uses it to prove the firewall from the
// clone's side. The same script runs on both platforms: node is in every template (the
// jail-service runs on it).

/** What to connect to from inside the clone. */
export interface InsideTarget {
  host: string;
  port: number;
  /** Written once connected; the first line of the answer is reported. */
  send?: string;
  /** The connect (and answer) deadline inside the clone; a dropped SYN just times out. */
  timeoutMs: number;
}

export interface InsideConnect {
  /** False when the probe itself did not run (no node, no such jail): nothing was tested. */
  ran: boolean;
  /** True when a TCP connection was established: something answered at host:port. */
  connected: boolean;
  /** The answer's first line when `send` was given and something came back. */
  answer: string | null;
  /** `connected`, `timeout`, `error ECONNREFUSED`, … as the probe printed it. */
  outcome: string;
  /** The command that ran, for the report. */
  argv: readonly string[];
}

/**
 * Prints `connected` on connect, then `answer <first line>` if `send` was given and data came
 * back; on failure `timeout` or `error <code>`. Exits 0 when connected, 1 otherwise. Arguments:
 * host, port, timeout in ms, payload ('' for none).
 */
export const PROBE_SCRIPT = [
  'const [host, port, ms, send] = process.argv.slice(1);',
  "const s = require('node:net').connect({ host, port: Number(port) });",
  'const end = (line, code) => { console.log(line); s.destroy(); process.exit(code); };',
  "const timer = setTimeout(() => end(connected ? 'no answer' : 'timeout', connected ? 0 : 1), Number(ms));",
  'let connected = false;',
  "s.on('connect', () => { connected = true; console.log('connected'); if (send) s.write(send); else end('', 0); });",
  "s.on('data', (d) => { clearTimeout(timer); end('answer ' + String(d).split('\\r\\n')[0], 0); });",
  "s.on('error', (e) => { clearTimeout(timer); end('error ' + (e.code ?? e.message), connected ? 0 : 1); });",
].join('\n');

/** `<node> -e <script> host port timeout payload`: the probe's argv after its runner prefix. */
export function probeArgv(node: string, target: InsideTarget): string[] {
  return [
    node,
    '-e',
    PROBE_SCRIPT,
    target.host,
    String(target.port),
    String(target.timeoutMs),
    target.send ?? '',
  ];
}

/** Reads the probe's output (`argv` is what ran, for the report). */
export function readProbe(
  argv: readonly string[],
  result: { exitCode: number | null; stdout: string; stderr: string },
): InsideConnect {
  const lines = result.stdout.split('\n').map((line) => line.trim());
  const connected = lines.includes('connected');
  const answerLine = lines.find((line) => line.startsWith('answer '));
  const last = [...lines].reverse().find((line) => line !== '' && line !== 'connected');
  const outcome = connected
    ? 'connected'
    : (last ?? (result.stderr.trim().split('\n')[0] || `exit ${result.exitCode}`));
  const ran = connected || lines.some((line) => line === 'timeout' || line.startsWith('error '));
  return {
    ran,
    connected,
    answer: answerLine === undefined ? null : answerLine.slice('answer '.length),
    outcome,
    argv,
  };
}
