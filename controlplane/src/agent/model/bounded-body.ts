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
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
