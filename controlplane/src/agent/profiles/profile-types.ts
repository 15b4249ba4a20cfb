// A model profile: how one family of computer-use models is asked (request body, prompt or tool
// declaration, images), how its replies read (parser), where its coordinates live, and what it
// cannot do. Every profile yields the same internal action plan (`ModelAction`s in the UI-TARS
// vocabulary of action-planners.ts), so the gate, approvals, audit, takeover and the browser operators
// never see which model spoke. docs/models.md, "Model profiles".
import type { ModelAction, Size } from '../uitars/types.js';

export const PROFILE_NAMES = [
  'ui-tars-1.5',
  'ui-tars-1.0',
  'qwen2.5-vl',
  'qwen3-vl',
  'openai-computer-use',
  'anthropic-computer-use',
  'gemini-computer-use',
] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

/** The HTTP dialect a profile speaks (agent/model/wires/). */
export type WireName =
  | 'chat-completions'
  | 'openai-responses'
  | 'anthropic-messages'
  | 'gemini-generate-content';

/**
 * How the model writes a point, measured on the image it was sent (after the profile's resize):
 * `image-pixels` — pixels of that image (UI-TARS-1.5, Qwen2.5-VL, and the hosted APIs, whose
 * declared display is that image's size); `relative` — 0…divisor across it, x = v / divisor × width
 * (UI-TARS-1.0 and Qwen3-VL 1000; Gemini's 0–999 grid is divisor 1000).
 */
export type CoordinateSpace = { kind: 'image-pixels' } | { kind: 'relative'; divisor: number };

/** The image formats a model image can be sent in (CLAWDIE_MODEL_IMAGE_FORMAT). */
export type ModelImageFormat = 'jpeg' | 'webp' | 'png';

export interface ImagePolicy {
  /** The size a screenshot of `width × height` device pixels is resized to before it is sent. */
  size(width: number, height: number): Size;
  /**
   * The format sent unless CLAWDIE_MODEL_IMAGE_FORMAT says otherwise: one every server of the
   * profile decodes (docs/models.md, "Image formats"): WebP for the hosted APIs, JPEG where a
   * self-hosted server (llama.cpp, Ollama) may lack a WebP decoder.
   */
  format: ModelImageFormat;
  /**
   * Sent instead of `format` where the model server says it decodes it (agent/model/model-server.ts):
   * WebP for the self-hosted profiles when their server is vLLM, SGLang or Ollama ≥ 0.32.14.
   */
  preferred?: ModelImageFormat;
  /** Screenshots kept in one request, newest last (older ones are left out). */
  maxImages: number;
  /**
   * True: a WebP screenshot that is no longer the newest may be sent at CLAWDIE_MODEL_OLDER_WEBP_QUALITY
   * (same size, encoded with the newest; image-window.ts says when). Only where the profile's own
   * reference loop treats older screenshots as context it may drop (the hosted APIs').
   */
  olderAtLowerQuality?: boolean;
}

/** A screenshot as prepared for the model (already at `ImagePolicy.size`, encoded once). */
export interface ProfileImage {
  /** `data:image/webp;base64,…` (or jpeg, png) */
  dataUrl: string;
  /** The base64 payload alone (for wires that take `data` + `media_type`). */
  base64: string;
  mediaType: `image/${ModelImageFormat}`;
  width: number;
  height: number;
  bytes: number;
  /** The same screenshot at the lower quality older screenshots may go in (same size), if any. */
  older?: OlderCopy;
}

/**
 * A screenshot's lower-quality copy, encoded only when a request is about to send it (many never
 * are: a task that ends within its image window sends none). Conversation.prepare() makes the
 * ones the next request needs; `made` holds it from then on.
 */
export interface OlderCopy {
  /** The copy, once made; null until then. */
  readonly made: ProfileImage | null;
  /** Encodes it, once: later calls share the first. Never rejects (see image-encoder.ts). */
  make(): Promise<ProfileImage>;
  /** Lets go of the screenshot it would be made from (it left the window, never to be sent). */
  discard(): void;
}

/** A model reply as the history keeps it. */
export interface ModelTurn {
  /**
   * The provider's own reply object (chat `message`, Responses `output` items, Messages `content`
   * blocks, Gemini `candidates[0].content`), kept verbatim so the next request repeats it byte for
   * byte (prefix caching) and so tool-call ids can be answered. Owned by the profile.
   */
  raw: unknown;
  /** A readable text of the reply for the trace and the dashboard (thought, then calls). */
  text: string;
}

/**
 * The provider-neutral history of one task. An observation follows every reply (the profile
 * answers the reply's tool calls with it where its protocol wants that); notes are Clawdie's
 * feedback to the model (a parse error, a refused action, a failed step).
 */
export type HistoryTurn =
  | {
      kind: 'observation';
      image: ProfileImage;
      notes: readonly string[];
      /** Safety signals of the previous reply that a supervisor approved (echoed where the API wants it). */
      acknowledged: readonly SafetySignal[];
      /** The page's URL when the screenshot was taken (profiles with `observesUrl` only). */
      url?: string;
    }
  | { kind: 'reply'; turn: ModelTurn };

/** What a profile needs to build one request. */
export interface RequestInput {
  /** The task's instruction, as the user wrote it. */
  instruction: string;
  /** The whole history, oldest first; the last turn is the newest observation. */
  history: readonly HistoryTurn[];
  /** Browser (navigation actions offered) or a desktop surface. */
  actionSpace: 'browser' | 'computer';
  /** Screenshots to keep (the profile's `maxImages`, or less where the operator set less). */
  imageWindow: number;
}

/** A reply read off the wire: its text and, for JSON replies, the whole body. */
export interface WireReply {
  /** Concatenated text content (may be '' for a pure tool-call reply). */
  text: string;
  /** The parsed JSON reply body (a streamed reply is reassembled into the same shape). */
  body: unknown;
}

/** A provider's own safety signal on a reply; it becomes a Clawdie approval before any action runs. */
export interface SafetySignal {
  /** The provider's id or code (e.g. an OpenAI pending safety check's `code`, Gemini's `decision`). */
  code: string;
  message: string;
  /** Opaque data to echo back when the approval is granted (OpenAI's check id). */
  ack?: unknown;
}

/** A reply, read. */
export interface ParsedReply {
  thought: string;
  reflection: string | null;
  /** In the internal vocabulary (action-planners.ts), points in the profile's CoordinateSpace. */
  actions: ModelAction[];
  safety: SafetySignal[];
  /** Calls Clawdie cannot do: refused to the model with `note`, never silently dropped. */
  refused: { name: string; note: string }[];
}

export type ParseResult = { ok: true; reply: ParsedReply } | { ok: false; message: string };

export interface ModelProfile {
  readonly name: ProfileName;
  readonly wire: WireName;
  readonly coordinates: CoordinateSpace;
  readonly image: ImagePolicy;
  /** Whether a model of this profile can be the judge (answers free text over chat completions). */
  readonly canJudge: boolean;
  /** The protocol sends the page's URL with each screenshot (one more call to the browser per step). */
  readonly observesUrl?: boolean;
  /** What the profile cannot do, one line each (docs and the start-up banner). */
  readonly limits: readonly string[];
  /**
   * The request body without the wire's transport fields (model, max_tokens, temperature,
   * stream). Deterministic, and append-only across a task's steps: the bytes of earlier turns do
   * not change (prefix caching), except where older images leave the window.
   */
  buildRequest(input: RequestInput): Record<string, unknown>;
  /** Reads one reply: what the history keeps, and the actions (or why there are none). */
  readReply(reply: WireReply): { turn: ModelTurn; parsed: ParseResult };
  /** The note that tells the model its reply could not be used (format reminder). */
  unusableNote(why: string): string;
}
