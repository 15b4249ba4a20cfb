// Builds the tree the test suite runs from: every TypeScript file of the repository compiled once
// to JavaScript (esbuild, one file at a time, as tsx would) in node_modules/.cache/clawdie-tests,
// beside a copy of everything else. The test processes then load plain JavaScript with no loader
// hooks: tsx's hooks cost each test process ≈ 0.65 s and 1.1 s of CPU to load the controlplane
// (docs/performance.md, "Test suite"), and the suite starts ≈ 390 of them.
//
// Layout: the tree mirrors the repository. Each `x.ts` becomes `x.js` (its map `x.js.map`) next to
// a copy of `x.ts`, so tests that read sources still find them. Every other file is copied too,
// not linked: a test that copies a directory it finds beside itself and edits the copy (a
// migrations folder, a policy) must not write through a link into the repository. Only
// node_modules/ and dist/ directories are links (installed and built output), and the top
// package.json, whose real path names the repository (test/support/repository-root.ts). A
// workspace's package.json is rewritten so its exports point at the compiled sources (what the
// `source` condition selects in the repository), and the tree's node_modules/@clawdie/* link to
// the tree's workspaces; third-party packages resolve through the repository's node_modules above.
//
// Each run builds its own tree, `run-<pid>` of the runner's shell, and removes it at exit; a tree
// whose shell is gone (a run that was killed) is removed by the next build. A run inside a run
// (test/repository/run-tests-posix.test.ts) thus never touches the tree the outer run loads from.
//
//   node test/support/test-tree.mjs PID FILE...
//     builds the tree of run PID when a FILE is in the repository, and prints each FILE as the
//     run loads it: the compiled `.test.js` in the tree, or the file itself when it is outside
//     (loaded under tsx then). stderr: what was compiled and how long it took.
//   node test/support/test-tree.mjs --remove PID
//     removes the tree of run PID, and those of runs whose shell is gone.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildStale } from '../../setup/bootstrap/build-stale.mjs';
import { runner, say } from '../../setup/bootstrap/prepare-code.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Names linked whole wherever they are: installed packages and built output. */
const LINKED_WHOLE = new Set(['node_modules', 'dist']);
/** Names left out: the repository's history and runtime data. */
const LEFT_OUT = new Set(['.git', 'data']);
const WORKSPACES = ['kit', 'jail-service', 'hostd', 'controlplane', 'setup'];

const treesDir = join(root, 'node_modules', '.cache', 'clawdie-tests');
let treeDir = '';

const isSource = (name) => name.endsWith('.ts') && !name.endsWith('.d.ts');

/** Mirrors `dir` (relative to the root) into the tree; collects the TypeScript files to compile. */
function mirror(dir, sources) {
  mkdirSync(join(treeDir, dir), { recursive: true });
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (LEFT_OUT.has(entry.name)) continue;
    if (dir === '' && (entry.name === 'package.json' || entry.name === 'node_modules')) continue;
    if (LINKED_WHOLE.has(entry.name) || entry.isSymbolicLink()) {
      symlinkSync(join(root, path), join(treeDir, path));
    } else if (entry.isDirectory()) {
      mirror(path, sources);
    } else if (entry.isFile()) {
      copyFileSync(join(root, path), join(treeDir, path));
      if (isSource(entry.name)) sources.push(join(root, path));
    }
  }
}

/**
 * A workspace's exports with each `source` entry's compiled file as the only target, except a
 * process entry (`./main`: jail-service, hostd), which stays the build, as it ships: hostd binds
 * the jail-service's real package into each clone, found through it (select-driver.ts).
 */
function compiledExports(exports) {
  if (!exports) return exports;
  const out = {};
  for (const [key, target] of Object.entries(exports)) {
    if (typeof target !== 'object' || !target.source) out[key] = target;
    else if (key === './main') out[key] = { default: target.default };
    else out[key] = { default: target.source.replace(/\.ts$/, '.js') };
  }
  return out;
}

const runTree = (pid) => join(treesDir, `run-${pid}`);

/** True while a process with this pid exists (EPERM: it exists, owned by another user). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Removes the trees of runs whose shell is gone. */
function removeOrphanTrees() {
  if (!existsSync(treesDir)) return;
  for (const name of readdirSync(treesDir)) {
    const pid = Number(/^run-(\d+)$/.exec(name)?.[1]);
    if (pid && !alive(pid)) rmSync(join(treesDir, name), { recursive: true, force: true });
  }
}

/** Builds run `pid`'s tree afresh (≈ 1.5 s); returns how many files were compiled. */
async function buildTestTree(pid) {
  // The tests run the builds as they ship (the CLI, hostd, the jail-service in clones): current
  // ones, as `npm test`'s bootstrap leaves them; rebuilt here after an edit (a no-op otherwise).
  buildStale(root, { run: runner(root), say });
  removeOrphanTrees();
  treeDir = runTree(pid);
  rmSync(treeDir, { recursive: true, force: true });
  mkdirSync(treeDir, { recursive: true });
  const sources = [];
  // The top node_modules is the repository's own (the tree's holds the workspaces' links); no
  // .git: nothing may run git in the tree (tests find the repository by repository-root.ts).
  mirror('', sources);
  symlinkSync(join(root, 'package.json'), join(treeDir, 'package.json'));
  for (const workspace of WORKSPACES) {
    const file = join(treeDir, workspace, 'package.json');
    const manifest = JSON.parse(readFileSync(join(root, workspace, 'package.json'), 'utf8'));
    rmSync(file);
    writeFileSync(
      file,
      JSON.stringify({ ...manifest, exports: compiledExports(manifest.exports) }),
    );
    const link = join(treeDir, 'node_modules', manifest.name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(treeDir, workspace), link);
  }
  // A compiled file and a `.js` file of the same name would be one path in the tree.
  const shadowed = sources.filter((source) => existsSync(source.replace(/\.ts$/, '.js')));
  if (shadowed.length > 0) {
    throw new Error(
      `test-tree: ${shadowed.map((file) => relative(root, file)).join(', ')}: a .js file of the same name is beside it; rename one of them`,
    );
  }
  await build({
    entryPoints: sources,
    outbase: root,
    outdir: treeDir,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Beside each file (x.js.map), read only when a stack trace through it is formatted
    // (lazy-source-maps.mjs); Node's --enable-source-maps would parse each one at load.
    sourcemap: 'external',
    sourcesContent: false,
    tsconfig: join(root, 'tsconfig.json'),
    logLevel: 'error',
  });
  return sources.length;
}

const [first, ...rest] = process.argv.slice(2);
if (first === '--remove') {
  rmSync(runTree(rest[0]), { recursive: true, force: true });
  removeOrphanTrees();
} else {
  const inside = (file) => !relative(root, resolve(file)).startsWith('..');
  if (rest.some(inside)) {
    const started = performance.now();
    const files = await buildTestTree(first);
    const ms = Math.round(performance.now() - started);
    process.stderr.write(`run-tests: ${files} TypeScript files compiled in ${ms} ms\n`);
  }
  const loaded = rest.map((file) =>
    inside(file)
      ? join(runTree(first), relative(root, resolve(file))).replace(/\.ts$/, '.js')
      : file,
  );
  process.stdout.write(`${loaded.join('\n')}\n`);
}
