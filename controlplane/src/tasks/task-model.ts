// The model a task runs with: the configured profile and client, or the profile the task chose
// (`model_profile`, admitted only where its tenant policy lists it) spoken to the same endpoint.
import type { ImageCodec } from '@clawdie/kit/images';
import type { Logger } from 'pino';
import type { VisionModel } from '../agent/model/chat-types.js';
import { wireOf } from '../agent/model/configured-model.js';
import { describeModelImages, type ImageEncoding } from '../agent/model/image-encoder.js';
import { type ModelServer, UNKNOWN_MODEL_SERVER } from '../agent/model/model-server.js';
import { profileNamed } from '../agent/profiles/index.js';
import type { ModelProfile } from '../agent/profiles/profile-types.js';
import { ModelError } from '../errors.js';
import type { BrowserRunTaskInput } from './task-input.js';

export interface TaskModel {
  profile: ModelProfile;
  model: VisionModel;
}

/** Throws ModelError when the chosen profile's wire cannot be spoken (a replayed model). */
export function taskModel(
  input: BrowserRunTaskInput,
  configured: { profile: ModelProfile; model: VisionModel },
): TaskModel {
  const name = input.model_profile;
  if (!name || name === configured.profile.name) return configured;
  const profile = profileNamed(name, configured.model.name);
  if (!profile) throw new ModelError('MODEL_UNAVAILABLE', `model profile ${name} is not built in`);
  if (profile.wire === configured.profile.wire) return { profile, model: configured.model };
  if (!configured.model.forWire)
    throw new ModelError(
      'MODEL_UNAVAILABLE',
      `model profile ${name} speaks ${profile.wire}, and ${configured.model.name} cannot`,
    );
  return { profile, model: configured.model.forWire(wireOf(profile)) };
}

/**
 * The task's model server, asked only where the answer can change the images: the operator set
 * no CLAWDIE_MODEL_IMAGE_FORMAT and the profile prefers another format where the server decodes
 * it. An identified server is logged with the format it gets. Never rejects: an abort, like any
 * failure, is `unknown` (the loop sees the abort itself).
 */
export async function taskModelServer(
  { profile, model }: TaskModel,
  deps: { loop: { imageEncoding: ImageEncoding }; images: ImageCodec },
  logger: Logger,
  signal: AbortSignal,
): Promise<ModelServer> {
  const { preferred, format } = profile.image;
  if (deps.loop.imageEncoding.format || !preferred || preferred === format || !model.server)
    return UNKNOWN_MODEL_SERVER;
  const server = await model.server(signal).catch(() => UNKNOWN_MODEL_SERVER);
  if (server.kind !== 'unknown') {
    const images = describeModelImages(
      { image: profile.image, encoding: deps.loop.imageEncoding, server },
      deps.images,
    );
    logger.info({ modelServer: server.kind, images }, 'model server identified');
  }
  return server;
}
