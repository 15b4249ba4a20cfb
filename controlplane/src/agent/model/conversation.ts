import { imagesAtOlderQuality, imagesLeftOut, keptImages } from '../profiles/image-window.js';
import type {
  HistoryTurn,
  ModelProfile,
  ModelTurn,
  OlderCopy,
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

  /**
   * Makes the lower-quality copies the next request sends (only at and after a chunk drop, see
   * image-window.ts); `request()` needs them made. Lets go of the screenshots that have left the
   * window.
   */
  async prepare(): Promise<void> {
    const copies = this.#copies();
    const shots = copies.length;
    const left = imagesLeftOut(shots, this.#imageWindow);
    for (const copy of copies.slice(0, left)) copy?.discard();
    await Promise.all(this.#copiesSent(copies, shots).map((copy) => copy.make()));
  }

  /**
   * The body of the next model request, as the profile builds it. Where a screenshot goes as its
   * lower-quality copy, that copy must have been made (`prepare()`). The copies the request after
   * this one will send start encoding now, while the model works on this one.
   */
  request(): Record<string, unknown> {
    const body = this.#profile.buildRequest({
      instruction: this.#instruction,
      history: this.#withOlderImages(),
      actionSpace: this.#actionSpace,
      imageWindow: this.#imageWindow,
    });
    const copies = this.#copies();
    for (const copy of this.#copiesSent(copies, copies.length + 1)) void copy.make();
    return body;
  }

  /** Each observation's copy (undefined where its image has none), oldest first. */
  #copies(): (OlderCopy | undefined)[] {
    return this.#history.flatMap((turn) => (turn.kind === 'observation' ? [turn.image.older] : []));
  }

  /** The copies a request sends once the history holds `shots` screenshots (of those known). */
  #copiesSent(copies: readonly (OlderCopy | undefined)[], shots: number): OlderCopy[] {
    const from = imagesLeftOut(shots, this.#imageWindow);
    const to = imagesAtOlderQuality(shots, this.#imageWindow);
    return copies.slice(from, to).filter((copy) => copy !== undefined);
  }

  /** The history with the screenshots image-window.ts names at their `older` copy. */
  #withOlderImages(): HistoryTurn[] {
    const shots = this.#history.filter((turn) => turn.kind === 'observation').length;
    let older = imagesAtOlderQuality(shots, this.#imageWindow);
    // Those left out are not sent: the profile drops their images whatever they are.
    let leftOut = imagesLeftOut(shots, this.#imageWindow);
    return this.#history.map((turn) => {
      if (turn.kind !== 'observation' || older <= 0) return turn;
      older--;
      const copy = turn.image.older;
      if (leftOut-- > 0 || !copy) return turn;
      if (!copy.made)
        throw new Error('an older screenshot copy was not made: call prepare() first');
      return { ...turn, image: copy.made };
    });
  }
}
