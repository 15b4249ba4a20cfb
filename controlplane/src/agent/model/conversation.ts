import type { ChatMessage, ContentPart } from './chat-types.js';
import type { ModelImage } from './image-encoder.js';

type Turn =
  | { kind: 'image'; image: ModelImage; notes: string[] }
  | { kind: 'assistant'; text: string };

/**
 * The UI-TARS conversation: the prompt (system prompt merged with the instruction, as UI-TARS
 * expects it in the first user message), then per step a screenshot and the model's reply.
 * Only the newest `imageWindow` screenshots are sent (vLLM's --limit-mm-per-prompt); every reply
 * is kept. Feedback for the model (a parse error, a failed action) rides on the next screenshot.
 */
export class Conversation {
  readonly #prompt: string;
  readonly #imageWindow: number;
  readonly #turns: Turn[] = [];
  #pendingNotes: string[] = [];

  constructor(prompt: string, imageWindow: number) {
    this.#prompt = prompt;
    this.#imageWindow = imageWindow;
  }

  /** Queues a note shown to the model with the next screenshot. */
  addNote(text: string): void {
    this.#pendingNotes.push(text);
  }

  addScreenshot(image: ModelImage): void {
    this.#turns.push({ kind: 'image', image, notes: this.#pendingNotes });
    this.#pendingNotes = [];
  }

  addReply(text: string): void {
    this.#turns.push({ kind: 'assistant', text });
  }

  /** The chat messages for the next model call. */
  messages(): ChatMessage[] {
    const imageTurns = this.#turns.filter((turn) => turn.kind === 'image');
    const firstKept = imageTurns[Math.max(0, imageTurns.length - this.#imageWindow)];
    let keeping = false;
    const out: ChatMessage[] = [{ role: 'user', content: this.#prompt }];
    for (const turn of this.#turns) {
      if (turn === firstKept) keeping = true;
      if (turn.kind === 'assistant') {
        out.push({ role: 'assistant', content: turn.text });
        continue;
      }
      const parts: ContentPart[] = turn.notes.map((text) => ({ type: 'text', text }));
      if (keeping) parts.push({ type: 'image_url', image_url: { url: turn.image.dataUrl } });
      if (parts.length > 0) out.push({ role: 'user', content: parts });
    }
    return out;
  }
}
