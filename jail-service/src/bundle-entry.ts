// The entry of the jail-service's one-file bundle (scripts/bundle.mjs): the service, not started.
// Its loader (scripts/bundle-loader.mjs) starts it, or — writing the bundle's V8 code cache at
// build time — only loads every module, so the cache holds their compiled code.
export { runService } from './run-service.js';

/** Evaluates every module the running service loads, starting nothing. */
export async function loadServiceModules(): Promise<void> {
  await import('./server.js');
}
