// Server-Sent Events from a response body, for HostdClient: each event's name (`message` when it
// has none), id and data, parsed by eventsource-parser (as the model client's stream is).
import { EventSourceParserStream } from 'eventsource-parser/stream';

export interface SseEvent {
  event: string;
  id: string | null;
  data: string;
}

export async function* readSseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body
    .pipeThrough(new TextDecoderStream() as ReadableWritablePair<string, Uint8Array>)
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield { event: value.event ?? 'message', id: value.id ?? null, data: value.data };
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
