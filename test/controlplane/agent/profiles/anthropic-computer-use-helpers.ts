// Builders for the anthropic-computer-use tests: fake images, observations and Messages API
// replies as the API writes them.
import type {
  HistoryTurn,
  ProfileImage,
  WireReply,
} from '../../../../controlplane/src/agent/profiles/profile-types.js';

export function fakeImage(width: number, height: number, base64 = 'AAAA'): ProfileImage {
  return {
    dataUrl: `data:image/jpeg;base64,${base64}`,
    base64,
    mediaType: 'image/jpeg',
    width,
    height,
    bytes: 3,
  };
}

export function observation(image: ProfileImage, notes: string[] = []): HistoryTurn {
  return { kind: 'observation', image, notes, acknowledged: [] };
}

/** A Messages API reply body with these content blocks. */
export function message(content: unknown[], stopReason = 'tool_use'): WireReply {
  const text = content
    .flatMap((block) => {
      const b = block as { type?: string; text?: string };
      return b.type === 'text' && typeof b.text === 'string' ? [b.text] : [];
    })
    .join('\n');
  return {
    text,
    body: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    },
  };
}

export function computerCall(id: string, input: Record<string, unknown>): Record<string, unknown> {
  return { type: 'tool_use', id, name: 'computer', input };
}
