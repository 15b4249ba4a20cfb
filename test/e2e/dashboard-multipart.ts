/** Reads `multipart/x-mixed-replace` JPEG parts from a response for `ms`, then cancels it. */
export async function readFrames(response: Response, ms: number): Promise<Buffer[]> {
  const boundary = /boundary=([^;]+)/.exec(response.headers.get('content-type') ?? '')?.[1];
  if (!boundary || !response.body) throw new Error('not a multipart stream');
  const reader = response.body.getReader();
  const frames: Buffer[] = [];
  let buffer = Buffer.alloc(0);
  const deadline = Date.now() + ms;
  try {
    while (Date.now() < deadline) {
      const timer = new Promise<null>((resolve) =>
        setTimeout(() => resolve(null), Math.max(1, deadline - Date.now())),
      );
      const chunk = await Promise.race([reader.read(), timer]);
      if (chunk === null || chunk.done) break;
      buffer = Buffer.concat([buffer, Buffer.from(chunk.value)]);
      for (;;) {
        const head = buffer.indexOf('\r\n\r\n');
        if (head === -1) break;
        const length = Number(
          /content-length: *(\d+)/i.exec(buffer.subarray(0, head).toString())?.[1],
        );
        if (buffer.length < head + 4 + length + 2) break;
        frames.push(buffer.subarray(head + 4, head + 4 + length));
        buffer = buffer.subarray(head + 4 + length + 2);
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return frames;
}
