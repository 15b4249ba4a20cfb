// Reads a task's Server-Sent Events over real HTTP, event by event, as a client would.

export interface SseEvent {
  id: number;
  event: string;
  data: string;
}

/**
 * Opens `url` (with `Last-Event-ID` when `lastId` is set) and yields each event until the
 * stream ends or the connection drops (a killed server ends the iteration without an error).
 */
export async function* readSse(
  url: string,
  options: { token: string; lastId?: number; signal?: AbortSignal },
): AsyncGenerator<SseEvent> {
  const response = await fetch(url, {
    headers: {
      authorization: `Bearer ${options.token}`,
      accept: 'text/event-stream',
      ...(options.lastId ? { 'last-event-id': String(options.lastId) } : {}),
    },
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (!response.ok || !response.body) throw new Error(`SSE ${url}: HTTP ${response.status}`);
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = parseBlock(block);
        if (event) yield event;
      }
    }
  } catch (error) {
    // The server died mid-stream: the client sees the connection end, as a browser would. The
    // caller's own abort or timeout (AbortSignal.timeout: a TimeoutError) is thrown.
    if ((error as Error).name === 'AbortError' || options.signal?.aborted) throw error;
  }
}

function parseBlock(block: string): SseEvent | null {
  let id = 0;
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('id:')) id = Number(line.slice(3).trim());
    else if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
  }
  return data.length > 0 ? { id, event, data: data.join('\n') } : null;
}
