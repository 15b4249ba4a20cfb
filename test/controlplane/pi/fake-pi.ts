// A fake pi ExtensionAPI: records registerTool / on / registerFlag and serves flag values;
// any other API use throws, so an extension reaching for more fails loudly.
import type { ExtensionAPI, ExtensionContext, ToolDefinition } from '@mariozechner/pi-coding-agent';

type Handler = (event: any, ctx: ExtensionContext) => unknown;

export interface FakePi {
  api: ExtensionAPI;
  tools: ToolDefinition<any, any>[];
  flags: Map<string, { description?: string; type: string; default?: unknown }>;
  handlers: Map<string, Handler[]>;
  /** Runs the handlers of `event` in order, like pi's runner, and returns their results. */
  emit(event: string, payload: unknown): Promise<unknown[]>;
}

/** `flagValues` are what `getFlag` returns for registered flags (pi's `--name value`). */
export function createFakePi(flagValues: Record<string, string> = {}): FakePi {
  const tools: ToolDefinition<any, any>[] = [];
  const flags: FakePi['flags'] = new Map();
  const handlers = new Map<string, Handler[]>();
  const target = {
    registerTool(tool: ToolDefinition<any, any>) {
      tools.push(tool);
    },
    on(event: string, handler: Handler) {
      handlers.set(event, [...(handlers.get(event) ?? []), handler]);
    },
    registerFlag(name: string, options: { type: string }) {
      flags.set(name, options);
    },
    getFlag(name: string) {
      return flags.has(name) ? flagValues[name] : undefined;
    },
  };
  const api = new Proxy(target, {
    get(object, property) {
      if (property in object) return object[property as keyof typeof object];
      throw new Error(`fake pi: unexpected use of ExtensionAPI.${String(property)}`);
    },
  }) as unknown as ExtensionAPI;
  return {
    api,
    tools,
    flags,
    handlers,
    async emit(event, payload) {
      const results: unknown[] = [];
      for (const handler of handlers.get(event) ?? []) {
        results.push(await handler(payload, {} as ExtensionContext));
      }
      return results;
    },
  };
}
