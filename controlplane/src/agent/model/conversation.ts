import { imagesAtOlderQuality, keptImages } from '../profiles/image-window.js';
import type {
  HistoryTurn,
  ModelProfile,
  ModelTurn,
  ProfileImage,
  SafetySignal,
} from '../profiles/profile-types.js';

/**
 * One task's conversation with its model, provider-neutral: per step a screenshot (with Clawdie's
 * notes to the model and the safety signals a supervisor approved) and the model's reply. The
 * profile renders it into its wire's request; only the newest `imageWindow` screenshots are sent.
 * Feedback for the model (a parse error, a failed action) rides on the next screenshot.
 */
export class Conversation {
  readonly #profile: ModelProfile;
  readonly #instruction: string;
  readonly #actionSpace: 'browser' | 'computer';
  readonly #imageWindow: number;
  readonly #history: HistoryTurn[] = [];
  #pendingNotes: string[] = [];
  #acknowledged: SafetySignal[] = [];

  constructor(options: {
    profile: ModelProfile;
    instruction: string;
    actionSpace: 'browser' | 'computer';
    imageWindow: number;
  }) {
    this.#profile = options.profile;
    this.#instruction = options.instruction;
    this.#actionSpace = options.actionSpace;
    this.#imageWindow = Math.min(options.imageWindow, options.profile.image.maxImages);
  }

  /** Queues a note shown to the model with the next screenshot. */
  addNote(text: string): void {
    this.#pendingNotes.push(text);
  }

  /** Safety signals of the last reply that a supervisor approved, echoed with the next screenshot. */
  acknowledge(signals: readonly SafetySignal[]): void {
    this.#acknowledged.push(...signals);
  }

  addScreenshot(image: ProfileImage, url?: string | null): void {
    this.#history.push({
      kind: 'observation',
      image,
      notes: this.#pendingNotes,
      acknowledged: this.#acknowledged,
      ...(url ? { url } : {}),
    });
    this.#pendingNotes = [];
    this.#acknowledged = [];
  }

  addReply(turn: ModelTurn): void {
    this.#history.push({ kind: 'reply', turn });
  }

  /** Screenshots the next request carries. */
  imagesSent(): number {
    return keptImages(this.#history, this.#imageWindow).size;
  }

  /** The body of the next model request, as the profile builds it. */
  request(): Record<string, unknown> {
    return this.#profile.buildRequest({
      instruction: this.#instruction,
      history: this.#withOlderImages(),
      actionSpace: this.#actionSpace,
      imageWindow: this.#imageWindow,
    });
  }

  /** The history with the screenshots image-window.ts names at their `older` copy. */
  #withOlderImages(): HistoryTurn[] {
    const shots = this.#history.filter((turn) => turn.kind === 'observation').length;
    let older = imagesAtOlderQuality(shots, this.#imageWindow);
    return this.#history.map((turn) => {
      if (turn.kind !== 'observation' || older <= 0) return turn;
      older--;
      return turn.image.older ? { ...turn, image: turn.image.older } : turn;
    });
  }
}
