// A minimal Server-Sent Events reader for HostdClient: yields each event's `event`, `id` and
// `data` fields from a response body (comments and unknown fields are skipped).

export interface SseEvent {
  event: string;
  id: string | null;
  data: string;
}

export async function* readSseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let current: SseEvent = { event: 'message', id: null, data: '' };
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let newline = buffer.search(/\r?\n/);
      while (newline >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(buffer[newline] === '\r' ? newline + 2 : newline + 1);
        newline = buffer.search(/\r?\n/);
        if (line === '') {
          if (current.data !== '' || current.event !== 'message') yield current;
          current = { event: 'message', id: null, data: '' };
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') current.event = value;
        else if (field === 'id') current.id = value;
        else if (field === 'data')
          current.data = current.data ? `${current.data}\n${value}` : value;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
