// Test harness: a real jail-service (real Chromium, real loopback HTTP) and a small typed client.
import assert from 'node:assert/strict';
import { loadConfig, startJailService } from '@clawdie/jail-service/server';
import {
  type Action,
  type ActionsResponse,
  actionsResponseSchema,
  type ElementsResponse,
  elementsResponseSchema,
  type PageState,
  pageStateSchema,
} from '@clawdie/kit/jail-api';
import { jailChromiumEnv } from '../support/capabilities.js';
import { silentLogger } from '../support/silent-logger.js';

export const TOKEN = 'jail-test-token-0123456789abcdef';

export interface JsonReply<T = unknown> {
  status: number;
  body: T;
}

export interface JailClient {
  url: string;
  fetch(path: string, init?: RequestInit, token?: string | null): Promise<Response>;
  /** POST /actions with any body; returns the status and parsed JSON. */
  post(body: unknown): Promise<JsonReply>;
  /** POST /actions expecting 200; the body is checked against the contract. */
  run(actions: Action[], timeoutMs?: number): Promise<ActionsResponse>;
  state(): Promise<PageState>;
  elements(): Promise<ElementsResponse>;
  /** JSON.parse of the page title: fixture pages log what they observed there. */
  titleJson<T>(): Promise<T>;
  screenshot(query?: string): Promise<{ response: Response; jpeg: Buffer }>;
}

export function createJailClient(url: string, token = TOKEN): JailClient {
  const doFetch = (path: string, init: RequestInit = {}, auth: string | null = token) => {
    const headers = new Headers(init.headers);
    if (auth !== null) headers.set('authorization', `Bearer ${auth}`);
    return fetch(`${url}${path}`, { ...init, headers });
  };
  const getJson = async <T>(path: string, parse: (value: unknown) => T): Promise<T> => {
    const response = await doFetch(path);
    const body: unknown = await response.json();
    assert.equal(response.status, 200, `${path}: ${JSON.stringify(body)}`);
    return parse(body);
  };
  const client: JailClient = {
    url,
    fetch: doFetch,
    async post(body) {
      const response = await doFetch('/actions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    },
    async run(actions, timeoutMs) {
      const reply = await client.post(timeoutMs ? { actions, timeout_ms: timeoutMs } : { actions });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      return actionsResponseSchema.parse(reply.body);
    },
    state: () => getJson('/state', (value) => pageStateSchema.parse(value)),
    elements: () => getJson('/elements', (value) => elementsResponseSchema.parse(value)),
    async titleJson<T>() {
      return JSON.parse((await client.state()).title) as T;
    },
    async screenshot(query = '') {
      const response = await doFetch(`/screenshot${query}`);
      return { response, jpeg: Buffer.from(await response.arrayBuffer()) };
    },
  };
  return client;
}

export interface TestJail {
  url: string;
  client: JailClient;
  close(): Promise<void>;
}

/** Starts a jail-service configured by a literal environment (never the process's). */
export async function startTestJail(env: Record<string, string> = {}): Promise<TestJail> {
  const config = loadConfig({
    CLAWDIE_JAIL_TOKEN: TOKEN,
    CLAWDIE_JAIL_PORT: '0',
    ...jailChromiumEnv,
    ...env,
  });
  const service = await startJailService(config, silentLogger);
  return { url: service.url, client: createJailClient(service.url), close: () => service.close() };
}

/** Asserts that every result is ok and returns the results. */
export function assertAllOk(response: ActionsResponse): ActionsResponse['results'] {
  for (const result of response.results) {
    assert.equal(result.status, 'ok', JSON.stringify(result));
  }
  return response.results;
}
