// Writes a stream to a file (0600) while hashing it, with a size bound: the controlplane's artifact
// store and the jail-service's upload store keep files this way. A failed write leaves no file.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface HashedFile {
  bytes: number;
  /** SHA-256, hex. */
  sha256: string;
}

/**
 * Streams `body` into `path`, SHA-256 on the way. More than `maxBytes` stops the write with the
 * error `tooLarge()` makes; any failure removes the partial file and rejects with its error.
 */
export async function writeHashed(
  body: ReadableStream<Uint8Array>,
  path: string,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<HashedFile> {
  const hash = createHash('sha256');
  let bytes = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) return done(tooLarge());
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(
      Readable.fromWeb(body as Parameters<typeof Readable.fromWeb>[0]),
      count,
      createWriteStream(path, { mode: 0o600 }),
    );
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
  return { bytes, sha256: hash.digest('hex') };
}
