// The tree the suite runs from (test/support/test-tree.mjs): each run's own compiled copy of the
// repository's TypeScript, loaded by plain node with no loader hooks. Checked here: a test file
// runs from it and passes, a workspace import resolves to the tree's compiled source (not to dist,
// not to a .ts file node cannot load) and a process entry to the real build, the sources and data
// are copies (nothing written in the tree reaches the repository), a run's tree survives another
// run's build while its shell lives and goes when it is gone.
import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { repositoryRoot } from '../support/repository-root.js';

const builder = join(repositoryRoot, 'test/support/test-tree.mjs');
const trees = join(repositoryRoot, 'node_modules/.cache/clawdie-tests');
const sample = 'test/kit/jail-api/api-schema.test.ts';

/** A process that stands in for a runner's shell: its pid names a tree while it lives. */
function standIn(): ChildProcess & { pid: number } {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], {
    stdio: 'ignore',
  });
  assert.ok(child.pid);
  return child as ChildProcess & { pid: number };
}

function buildFor(pid: number, ...files: string[]): string[] {
  return execFileSync(process.execPath, [builder, String(pid), ...files], {
    cwd: repositoryRoot,
    encoding: 'utf8',
  })
    .trim()
    .split('\n');
}

describe('the compiled test tree', () => {
  const shells = [standIn(), standIn()];
  after(() => {
    for (const shell of shells) {
      shell.kill();
      execFileSync(process.execPath, [builder, '--remove', String(shell.pid)]);
    }
  });

  it('runs a test file as plain JavaScript, with workspace imports resolved inside the tree', () => {
    const [first] = shells as [ChildProcess & { pid: number }];
    const tree = join(trees, `run-${first.pid}`);
    assert.deepEqual(buildFor(first.pid, sample, '/elsewhere/x.test.ts'), [
      join(tree, 'test/kit/jail-api/api-schema.test.js'),
      '/elsewhere/x.test.ts',
    ]);
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const run = spawnSync(process.execPath, [join(tree, 'test/kit/jail-api/api-schema.test.js')], {
      cwd: repositoryRoot,
      env,
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /# pass [1-9]/);
    const resolve = (specifier: string) =>
      realpathSync(
        new URL(
          execFileSync(
            process.execPath,
            ['--input-type=module', '-e', `console.log(import.meta.resolve('${specifier}'))`],
            { cwd: join(tree, 'test'), encoding: 'utf8' },
          ).trim(),
        ),
      );
    assert.equal(resolve('@clawdie/kit/timing'), join(tree, 'kit/src/timing/index.js'));
    // A process entry stays the build as it ships: hostd binds the real package into clones.
    assert.equal(
      resolve('@clawdie/jail-service/main'),
      join(repositoryRoot, 'jail-service/dist/main.js'),
    );
    // Sources and data are copies: a test that edits what it finds beside itself (a copy of the
    // migrations folder, whose journal the tenant migration test rewrites) cannot reach the
    // repository through a link.
    for (const file of [sample, 'controlplane/drizzle/meta/_journal.json', 'policies']) {
      assert.equal(lstatSync(join(tree, file)).isSymbolicLink(), false, file);
    }
    assert.equal(
      readFileSync(join(tree, sample), 'utf8'),
      readFileSync(join(repositoryRoot, sample), 'utf8'),
    );
    // Its map beside it, read only when a stack trace is formatted (lazy-source-maps.mjs).
    const map = JSON.parse(
      readFileSync(join(tree, 'test/kit/jail-api/api-schema.test.js.map'), 'utf8'),
    ) as { sources: string[] };
    assert.deepEqual(
      map.sources.map((source) =>
        join(dirname(join(tree, 'test/kit/jail-api/api-schema.test.js')), source),
      ),
      [join(repositoryRoot, 'test/kit/jail-api/api-schema.test.ts')],
    );
  });

  it("keeps a live run's tree when another run builds, and removes a gone run's tree", async () => {
    const [first, second] = shells as [
      ChildProcess & { pid: number },
      ChildProcess & { pid: number },
    ];
    buildFor(second.pid, sample);
    assert.ok(existsSync(join(trees, `run-${first.pid}`)), 'a live run keeps its tree');
    assert.ok(existsSync(join(trees, `run-${second.pid}`, 'test/kit/jail-api/api-schema.test.js')));
    first.kill();
    await new Promise((resolve) => first.once('exit', resolve));
    // The second run ends: its tree goes, and so does the tree of the run that was killed.
    execFileSync(process.execPath, [builder, '--remove', String(second.pid)]);
    assert.equal(
      existsSync(join(trees, `run-${first.pid}`)),
      false,
      "a gone run's tree is removed",
    );
    assert.equal(existsSync(join(trees, `run-${second.pid}`)), false);
  });
});
