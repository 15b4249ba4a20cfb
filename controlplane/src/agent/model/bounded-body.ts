// Reads an HTTP response body up to a bound: a model server (or anything posing as one) cannot
// make the controlplane buffer an unbounded reply (issue 12).

/** Bound on a model server's reply body: far above what `CLAWDIE_MODEL_MAX_TOKENS` allows. */
export const MAX_MODEL_REPLY_BYTES = 4 * 1024 * 1024;

/**
 * The body as UTF-8 text, or null when it is larger than `maxBytes` (reading then stops and the
 * rest is cancelled). Rejects when the stream fails.
 */
export async function readBoundedText(
  response: Response,
  maxBytes: number,
): Promise<string | null> {
  if (!response.body) return '';
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body.cancel().catch(() => undefined);
    return null;
  }
  const chunks: Uint8Array[] = [];
  const read = await readBoundedChunks(response.body, maxBytes, (chunk) => {
    chunks.push(chunk);
    return false;
  });
  return read === 'too-large' ? null : Buffer.concat(chunks).toString('utf8');
}

/**
 * Hands `body`'s chunks to `onChunk` until the body ends (`ended`), `onChunk` returns true
 * (`stopped`), or more than `maxBytes` arrived (`too-large`, the chunk past the bound is not
 * handed over); the rest of the body is cancelled whenever reading stops early.
 */
export async function readBoundedChunks(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  onChunk: (chunk: Uint8Array) => boolean,
): Promise<'ended' | 'stopped' | 'too-large'> {
  const reader = body.getReader();
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return 'ended';
    size += value.byteLength;
    const ending = size > maxBytes ? 'too-large' : onChunk(value) ? 'stopped' : null;
    if (ending) {
      await reader.cancel().catch(() => undefined);
      return ending;
    }
  }
}
