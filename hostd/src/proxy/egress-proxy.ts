// One clone's egress proxy: a host-side HTTP forward proxy (CONNECT for HTTPS, absolute-URL requests
// for HTTP) that lets through only allowlisted host:port pairs whose every resolved address passes
// the address policy (never the host or other clones), and reports every refusal
// (freebsd-jails.md §2.6). No TLS interception; DNS is resolved here, once, never in the clone.
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { type AddressPolicy, createAddressPolicy } from './address-policy.js';
import { compileAllowlist } from './domain-rules.js';
import { decideEgress, type EgressRules } from './egress-decision.js';
import { type HostResolver, systemResolver } from './host-resolver.js';

export interface RefusedAttempt {
  host: string;
  port: number;
  method: string;
  reason: 'not-allowed' | 'bad-request' | 'blocked-address';
  /** For `blocked-address`: the resolved `address:port` that is off limits. */
  address?: string;
}

export interface EgressProxyOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  allowedDomains: readonly string[];
  /** Addresses refused whatever the allowlist says (default: every internal one, no exception). */
  addressPolicy?: AddressPolicy;
  /** DNS (default: the system resolver). */
  resolver?: HostResolver;
  /** Called for every refused attempt. Must not throw. */
  onRefused: (attempt: RefusedAttempt) => void;
}

export interface EgressProxy {
  readonly url: string;
  /** Replaces the allowlist (a warm clone gets its task's domains when handed out). */
  setAllowedDomains(patterns: readonly string[]): void;
  /** Stops listening and destroys every open connection. Idempotent. */
  close(): Promise<void>;
}

export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const rules: EgressRules = {
    allowed: compileAllowlist(options.allowedDomains),
    addresses: options.addressPolicy ?? createAddressPolicy(),
    resolver: options.resolver ?? systemResolver,
  };
  const sockets = new Set<Duplex>();
  const track = (socket: Duplex) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const refuse = (attempt: RefusedAttempt) => options.onRefused(attempt);
  const server = createServer((incoming, outgoing) => {
    const target = parseAbsolute(incoming.url ?? '');
    const method = incoming.method ?? 'GET';
    if (!target) {
      refuse({ host: '', port: 0, method, reason: 'bad-request' });
      outgoing.writeHead(400).end('absolute URL required\n');
      return;
    }
    const { host, port } = hostPort(target);
    incoming.pause();
    void decideEgress(host, port, rules)
      .then((decision) => {
        if (decision.kind === 'connect')
          return forward(incoming, target, decision.address, outgoing);
        if (decision.kind === 'unresolved') return void outgoing.writeHead(502).end();
        refuse({ host, port, method, ...refusalOf(decision) });
        outgoing.writeHead(403, { 'content-type': 'text/plain' }).end('blocked by egress policy\n');
      })
      .catch(() => outgoing.destroy());
  });
  server.on('connection', track);
  server.on('connect', (incoming: IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    client.on('error', () => client.destroy());
    const [host, portText] = splitHostPort(incoming.url ?? '');
    const port = Number(portText);
    if (!host || !Number.isInteger(port) || port < 1 || port > 65_535) {
      refuse({ host: host ?? '', port: port || 0, method: 'CONNECT', reason: 'bad-request' });
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    void decideEgress(host, port, rules)
      .then((decision) => {
        if (decision.kind === 'connect') return tunnel(client, decision.address, port, head, track);
        if (decision.kind === 'unresolved')
          return void client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
        refuse({ host, port, method: 'CONNECT', ...refusalOf(decision) });
        client.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
      })
      .catch(() => client.destroy());
  });
  await listen(server, options.host, options.port);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${options.host}:${port}`,
    setAllowedDomains(patterns) {
      rules.allowed = compileAllowlist(patterns);
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      });
      return closing;
    },
  };
}

function refusalOf(
  decision: { reason: 'not-allowed' } | { reason: 'blocked-address'; address: string },
) {
  return decision.reason === 'blocked-address'
    ? { reason: decision.reason, address: decision.address }
    : { reason: decision.reason };
}

/** Connects to the checked address (never the name again) and splices the two sockets. */
function tunnel(
  client: Duplex,
  address: string,
  port: number,
  head: Buffer,
  track: (socket: Duplex) => void,
) {
  const upstream: Socket = connect({ host: address, port }, () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  track(upstream);
  upstream.on('error', () => {
    client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
  });
}

function forward(
  incoming: IncomingMessage,
  target: URL,
  address: string,
  outgoing: import('node:http').ServerResponse,
) {
  const headers = { ...incoming.headers };
  delete headers['proxy-connection'];
  delete headers['proxy-authorization'];
  headers.host = target.host;
  const upstream = request(
    {
      host: address,
      port: Number(target.port || 80),
      method: incoming.method,
      path: `${target.pathname}${target.search}`,
      headers,
    },
    (response) => {
      outgoing.writeHead(response.statusCode ?? 502, response.headers);
      response.pipe(outgoing);
    },
  );
  upstream.on('error', () => {
    if (!outgoing.headersSent) outgoing.writeHead(502);
    outgoing.end();
  });
  incoming.pipe(upstream);
  incoming.resume();
}

function parseAbsolute(url: string): URL | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' && parsed.hostname ? parsed : null;
  } catch {
    return null;
  }
}

function hostPort(url: URL): { host: string; port: number } {
  return { host: url.hostname, port: Number(url.port || 80) };
}

/** `example.com:443` / `[::1]:443` → host and port text. */
function splitHostPort(value: string): [string | undefined, string | undefined] {
  const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(value);
  return [match?.[1], match?.[2]];
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
