// The entry of the controlplane's one-file bundle (setup/bootstrap/bundle-cli.mjs): the `clawdie`
// command and the server, neither started. controlplane/bin/load-bundle.mjs starts one, or — writing
// the bundle's V8 code cache at build time — only evaluates the modules a command loads, so the
// cache holds their compiled code. The server's modules are evaluated only when it starts: a
// `clawdie run` loads none of them (esbuild keeps a dynamic import lazy).
export { runCli } from './cli-run.js';

/** `npm start`'s server (server-main.ts). */
export async function runServer(): Promise<void> {
  await (await import('./server-main.js')).runServer();
}

/** Evaluates every module `clawdie run` and the server load, starting nothing. */
export async function loadCommandModules(): Promise<void> {
  await Promise.all([import('./ingress/cli/task-cli.js'), import('./server-main.js')]);
}
