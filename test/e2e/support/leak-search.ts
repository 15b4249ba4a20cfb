// The leak search of the e2e tests: every text the controlplane produced (database rows, files
// under its data dir, log lines, model requests, anything else given), searched for secret values.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { VisionModel } from '../../../controlplane/src/agent/model/chat-types.js';
import type { Db } from '../../../controlplane/src/platform/store/database.js';

export interface LeakSources {
  db: Db;
  dataDir: string;
  logLines: readonly string[];
  modelRequests: readonly string[];
  extra?: readonly unknown[];
}

/** Every text the controlplane produced (WAL checkpointed first, so the file holds every row). */
export function everything(sources: LeakSources): string[] {
  const sqlite = sources.db.$client;
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  const tables = sqlite
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
    .all();
  const rows = tables.map(({ name }) =>
    JSON.stringify(sqlite.prepare(`SELECT * FROM "${name}"`).all()),
  );
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? files(join(dir, entry.name))
        : [readFileSync(join(dir, entry.name)).toString('latin1')],
    );
  return [
    ...rows,
    ...files(sources.dataDir),
    ...sources.logLines,
    ...sources.modelRequests,
    ...(sources.extra ?? []).map((value) => JSON.stringify(value)),
  ];
}

/** The start (200 chars) of each text in `haystack` containing one of `secrets`. */
export function leaksOf(haystack: readonly string[], secrets: readonly string[]): string[] {
  return haystack
    .filter((text) => secrets.some((secret) => text.includes(secret)))
    .map((text) => text.slice(0, 200));
}

/** `model`, with every request it gets and every reply it gives kept in `texts` for the search. */
export function recordingModel(model: VisionModel, texts: string[]): VisionModel {
  return {
    ...model,
    async complete(request, signal) {
      // What goes to the server: the profile's body (its `messages` repeat it for chat profiles).
      texts.push(JSON.stringify(request.body ?? { messages: request.messages }));
      const reply = await model.complete(request, signal);
      texts.push(JSON.stringify(reply));
      return reply;
    },
  };
}
