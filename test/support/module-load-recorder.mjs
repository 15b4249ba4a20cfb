// `node --import ./test/support/module-load-recorder.mjs …`: appends the URL of every module the
// process loads through the ESM loader (its own files, each package's entry and the ESM files
// under it) to the file named by CLAWDIE_TEST_LOADED_MODULES, one per line. For tests that assert
// what a command does NOT load (test/controlplane/ingress/cli/cli-lazy-imports.test.ts).
import { register } from 'node:module';

const file = process.env.CLAWDIE_TEST_LOADED_MODULES;
if (!file) throw new Error('module-load-recorder: set CLAWDIE_TEST_LOADED_MODULES to a file path');
const hooks = `data:text/javascript,${encodeURIComponent(`
import { appendFileSync } from 'node:fs';
let file;
export function initialize(data) { file = data.file; }
export async function load(url, context, next) {
  appendFileSync(file, url + '\\n');
  return next(url, context);
}`)}`;
register(hooks, { parentURL: import.meta.url, data: { file } });
