// Adapter: the network evidence of the driven browser (issue 23). Every tab's page — and through
// puppeteer's per-target sessions its out-of-process frames — reports its document, XHR and fetch
// requests here; a batch takes a mark before its first action and, once it settled, the requests
// started since (waiting a bounded time for those still running). Method, URL without query values,
// status, timing and bytes: never a header or a body.

import {
  evidenceUrl,
  MAX_EVIDENCE_ENTRIES,
  type NetworkEntry,
  type NetworkEvidence,
  type NetworkRequestKind,
} from '@clawdie/kit/jail-api';
import { sleep } from '@clawdie/kit/timing';
import type { CDPSession, HTTPRequest, HTTPResponse, Page } from 'puppeteer-core';
import type { NetworkEvidenceSource } from '../page-driver.js';

/** Requests kept between two marks at most (a page polling while no batch runs). */
const MAX_PENDING_RECORDS = 1000;
const POLL_MS = 10;

interface Record {
  readonly id: string;
  readonly method: string;
  readonly url: string;
  readonly kind: NetworkRequestKind;
  readonly mainFrame: boolean;
  readonly startedAt: number;
  /** When the response headers came (a body nobody reads never finishes loading). */
  respondedAt: number | null;
  endedAt: number | null;
  status: number | null;
  error?: string;
  bytes: number | null;
}

export interface NetworkLog extends NetworkEvidenceSource {
  /** Reports `page`'s requests (call once per tab, before it is used). */
  watch(page: Page): void;
}

export function createNetworkLog(): NetworkLog {
  let records: Record[] = [];
  let overflow = 0;
  let markedAt = performance.now();
  /** The newest record of each CDP request id (a redirect keeps the id for its next hop). */
  const byId = new Map<string, Record>();
  const byRequest = new WeakMap<HTTPRequest, Record>();
  const sessions = new WeakSet<CDPSession>();

  const listenForBytes = (request: HTTPRequest) => {
    // Bytes on the wire are only in the CDP event; puppeteer's request knows its target's session.
    const session = (request as unknown as { client?: CDPSession }).client;
    if (!session || sessions.has(session)) return;
    sessions.add(session);
    session.on('Network.loadingFinished', (event) => {
      const record = byId.get(event.requestId);
      if (record) record.bytes = Math.round(event.encodedDataLength);
    });
  };

  const started = (page: Page, request: HTTPRequest) => {
    const kind = kindOf(request);
    if (!kind) return;
    const id = cdpRequestId(request);
    const record: Record = {
      id,
      method: request.method(),
      url: evidenceUrl(request.url()),
      kind,
      mainFrame: request.frame() === page.mainFrame(),
      startedAt: performance.now(),
      respondedAt: null,
      endedAt: null,
      status: null,
      bytes: null,
    };
    byRequest.set(request, record);
    byId.set(id, record);
    listenForBytes(request);
    if (records.length >= MAX_PENDING_RECORDS) {
      records.shift();
      overflow += 1;
    }
    records.push(record);
  };
  const responded = (response: HTTPResponse) => {
    const record = byRequest.get(response.request());
    if (!record) return;
    record.status = response.status();
    record.respondedAt = performance.now();
  };
  const ended = (request: HTTPRequest, error?: string) => {
    const record = byRequest.get(request);
    if (!record || record.endedAt !== null) return;
    record.endedAt = performance.now();
    if (error) record.error = error;
  };

  return {
    watch(page) {
      page.on('request', (request) => started(page, request));
      page.on('response', responded);
      page.on('requestfinished', (request) => ended(request));
      page.on('requestfailed', (request) =>
        ended(request, request.failure()?.errorText ?? 'failed'),
      );
    },
    mark() {
      // What started before this mark is never reported again.
      records = [];
      overflow = 0;
      byId.clear();
      markedAt = performance.now();
      return markedAt;
    },
    async since(mark, settleMs) {
      const deadline = performance.now() + settleMs;
      const mine = () => records.filter((record) => record.startedAt >= mark);
      // Answered is enough: a fetch whose body the page never reads never finishes loading.
      const waiting = (record: Record) => record.endedAt === null && record.respondedAt === null;
      while (mine().some(waiting) && performance.now() < deadline) await sleep(POLL_MS);
      return evidenceOf(mine(), mark, mark === markedAt ? overflow : 0);
    },
  };
}

/** The CDP request id (puppeteer's own; not in its public types). */
function cdpRequestId(request: HTTPRequest): string {
  return (request as unknown as { id: string }).id;
}

function kindOf(request: HTTPRequest): NetworkRequestKind | null {
  const type = request.resourceType();
  if (type === 'xhr' || type === 'fetch') return type;
  if (type !== 'document') return null;
  return request.method() === 'GET' || request.method() === 'HEAD' ? 'document' : 'form';
}

/** The newest MAX_EVIDENCE_ENTRIES records as entries, oldest first; the others counted. */
function evidenceOf(records: readonly Record[], mark: number, overflow: number): NetworkEvidence {
  const kept = records.slice(-MAX_EVIDENCE_ENTRIES);
  return {
    entries: kept.map((record) => entryOf(record, mark)),
    dropped: records.length - kept.length + overflow,
  };
}

function entryOf(record: Record, mark: number): NetworkEntry {
  const end = record.endedAt ?? record.respondedAt;
  const error = end === null ? 'pending' : record.error;
  return {
    method: record.method,
    url: record.url,
    kind: record.kind,
    main_frame: record.mainFrame,
    status: record.status,
    ...(error ? { error } : {}),
    started_ms: round(record.startedAt - mark),
    duration_ms: end === null ? null : round(end - record.startedAt),
    bytes: record.bytes,
  };
}

function round(ms: number): number {
  return Math.max(0, Math.round(ms * 10) / 10);
}
