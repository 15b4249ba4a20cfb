// Splits a `multipart/x-mixed-replace` JPEG stream (the jail-service's GET /screencast) into frames.

const headerEnd = Buffer.from('\r\n\r\n');

/**
 * Yields each part's body as it completes, using its Content-Length. Ends when the stream ends;
 * a read error (e.g. the request aborted) propagates. The reader is released either way.
 */
export async function* mjpegParts(body: ReadableStream<Uint8Array>): AsyncGenerator<Buffer> {
  const reader = body.getReader();
  let buffer = Buffer.alloc(0);
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) return;
      buffer =
        buffer.length === 0 ? Buffer.from(chunk.value) : Buffer.concat([buffer, chunk.value]);
      for (;;) {
        const head = buffer.indexOf(headerEnd);
        if (head === -1) break;
        const length = Number(
          /content-length: *(\d+)/i.exec(buffer.subarray(0, head).toString('latin1'))?.[1] ?? NaN,
        );
        if (!Number.isFinite(length)) throw new Error('screencast part without Content-Length');
        const start = head + headerEnd.length;
        if (buffer.length < start + length) break;
        yield buffer.subarray(start, start + length);
        buffer = buffer.subarray(start + length);
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
