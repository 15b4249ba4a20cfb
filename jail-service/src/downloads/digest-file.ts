// One pass over a finished download: its size, SHA-256, and the head and tail the sniffer reads.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { SNIFF_HEAD_BYTES, SNIFF_TAIL_BYTES } from './sniff-type.js';

export interface FileDigest {
  size: number;
  sha256: string;
  head: Uint8Array;
  tail: Uint8Array;
}

export async function digestFile(path: string): Promise<FileDigest> {
  const hash = createHash('sha256');
  const heads: Buffer[] = [];
  let headBytes = 0;
  let tail = Buffer.alloc(0);
  let size = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
    if (headBytes < SNIFF_HEAD_BYTES) {
      const part = chunk.subarray(0, SNIFF_HEAD_BYTES - headBytes);
      heads.push(part);
      headBytes += part.length;
    }
    tail = Buffer.concat([tail, chunk]).subarray(-SNIFF_TAIL_BYTES);
  }
  return { size, sha256: hash.digest('hex'), head: Buffer.concat(heads), tail };
}
