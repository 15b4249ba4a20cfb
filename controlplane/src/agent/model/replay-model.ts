// A model that replays recorded outputs in order, for demos and tests. Labelled as a replay.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ModelError } from '../../errors.js';
import type { ModelReply, VisionModel } from './chat-types.js';

const replayFileSchema = z.object({
  name: z.string().min(1).default('replay'),
  description: z.string().optional(),
  outputs: z.array(z.string().min(1)).min(1),
});

/** Creates a replay model from outputs in memory. The n-th call returns the n-th output. */
export function createReplayModel(outputs: readonly string[], name = 'replay'): VisionModel {
  let next = 0;
  return {
    name,
    isReplay: true,
    async complete(request, signal): Promise<ModelReply> {
      signal?.throwIfAborted();
      const text = outputs[next];
      if (text === undefined) {
        throw new ModelError(
          'MODEL_UNAVAILABLE',
          `replay exhausted after ${outputs.length} outputs`,
        );
      }
      next += 1;
      return {
        text,
        requestBytes: Buffer.byteLength(JSON.stringify(request.body ?? request.messages)),
        usage: null,
      };
    },
  };
}

/** Loads `{name?, outputs: string[]}` JSON from disk; throws a message naming the file. */
export async function loadReplayModel(path: string): Promise<VisionModel> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new ModelError('MODEL_BAD_RESPONSE', `replay file ${path}: ${(error as Error).message}`);
  }
  const parsed = replayFileSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new ModelError(
      'MODEL_BAD_RESPONSE',
      `replay file ${path}: ${first?.path.join('.') || '(root)'}: ${first?.message}`,
    );
  }
  return createReplayModel(parsed.data.outputs, `replay:${parsed.data.name}`);
}
