// Issue 13 (2): one composition root. Fails when wiring spreads again: when something other than
// controlplane/src/composition/ builds the store, task security, task services, browser sources
// or the app, when server.ts does more than load config, build the root and listen, or when a test
// assembles the controlplane by hand instead of through test/support/controlplane.ts.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { relativeImports } from '../../support/import-graph.js';
import { repositoryRoot } from '../../support/repository-root.js';

const root = repositoryRoot;
const source = relativeImports(root, ['controlplane/src']);
const tests = relativeImports(root, ['test', 'bench']);
const inRoot = (file: string) => file.startsWith('controlplane/src/composition/');

/** Files importing any of `names` (as values) from `target`. */
function importersOf(
  imports: ReturnType<typeof relativeImports>,
  target: string,
  names: readonly string[],
): string[] {
  const files = imports
    .filter((entry) => entry.target === target && entry.values.some((name) => names.includes(name)))
    .map((entry) => entry.file);
  return [...new Set(files)].sort();
}

describe('one composition root', () => {
  it('only the root builds the task pipeline, the browser source, the store and the app', () => {
    const pieces: [string, string[], string[]][] = [
      ['controlplane/src/tasks/task-service.ts', ['createTaskService'], []],
      ['controlplane/src/governance/policy/task-security.ts', ['createTaskSecurity'], []],
      ['controlplane/src/browser/provider/browser-source.ts', ['openBrowserSource'], []],
      ['controlplane/src/ingress/http/app.ts', ['createApp'], []],
      // The store bundle (SQLite or PostgreSQL) is the one place task repositories are built.
      [
        'controlplane/src/platform/store/task-repository.ts',
        ['createTaskRepository'],
        ['controlplane/src/platform/store/open-stores.ts'],
      ],
      [
        'controlplane/src/platform/store/pg/pg-task-repository.ts',
        ['createPgTaskRepository'],
        // open-stores.ts imports it only when CLAWDIE_DATABASE_URL is set.
        ['controlplane/src/platform/store/pg/open-pg-stores.ts'],
      ],
      // The offline admin commands (secrets, `session list|revoke` with no server running,
      // `hosts`, `audit verify`) open the store bundle without tasks or browsers.
      [
        'controlplane/src/platform/store/open-stores.ts',
        ['openStores'],
        ['controlplane/src/ingress/cli/cli-stores.ts'],
      ],
      // claimDataDirAt opens its own connection to the data dir's SQLite file (the local claim,
      // kept on PostgreSQL too), and `session` finds the data dir's server in it.
      [
        'controlplane/src/platform/store/database.ts',
        ['openDatabase'],
        [
          'controlplane/src/ingress/cli/session-server.ts',
          'controlplane/src/platform/ownership/data-dir-owner.ts',
          'controlplane/src/platform/store/open-stores.ts',
        ],
      ],
      [
        'controlplane/src/platform/ownership/data-dir-owner.ts',
        ['claimDataDir', 'claimDataDirAt'],
        [],
      ],
    ];
    for (const [target, names, allowed] of pieces) {
      const outside = importersOf(source, target, names).filter(
        (file) => !inRoot(file) && !allowed.includes(file),
      );
      assert.deepEqual(outside, [], `${names.join('/')} is built outside the composition root`);
    }
    assert.equal(existsSync(join(root, 'controlplane/src/platform.ts')), false);
  });

  it('server.ts imports only the root, the config, the error base and output helpers', () => {
    const imported = source
      .filter((entry) => entry.file === 'controlplane/src/server.ts')
      .map((entry) => entry.target)
      .sort();
    assert.deepEqual(imported, [
      'controlplane/src/composition/create-controlplane.ts',
      'controlplane/src/composition/real-adapters.ts',
      'controlplane/src/config.ts',
      'controlplane/src/errors.ts',
      'controlplane/src/ingress/cli/cli-output.ts',
      'controlplane/src/ingress/cli/server-banner.ts',
      // The entry makes the process's one launcher (and child registry) and hands it down.
      'controlplane/src/platform/runner/process-launcher.ts',
    ]);
  });

  it('the CLI entry points build the same root, never their own pieces', () => {
    for (const file of [
      'controlplane/src/ingress/cli/task-cli.ts',
      'controlplane/src/ingress/cli/mcp-command.ts',
    ]) {
      const targets = source.filter((entry) => entry.file === file).map((entry) => entry.target);
      assert.ok(targets.includes('controlplane/src/composition/create-controlplane.ts'), file);
    }
  });

  it('tests build the whole controlplane only through test/support/controlplane.ts', () => {
    assert.deepEqual(
      importersOf(tests, 'controlplane/src/composition/create-controlplane.ts', [
        'createControlplane',
      ]),
      ['test/support/controlplane.ts'],
    );
    for (const [target, names] of [
      ['controlplane/src/governance/policy/task-security.ts', ['createTaskSecurity']],
      ['controlplane/src/browser/provider/browser-source.ts', ['openBrowserSource']],
    ] as const) {
      const outside = importersOf(tests, target, names).filter(
        (file) => file !== 'test/support/controlplane.ts',
      );
      assert.deepEqual(outside, [], `${names.join('/')} is assembled by hand in tests`);
    }
  });

  it('only HTTP-layer tests (routing, auth, OpenAPI, SSE, page rendering over stubs) build the app alone', () => {
    // Each of these tests routes in isolation with narrow stubs; everything else that needs an
    // app takes the controlplane's from createTestControlplane.
    assert.deepEqual(importersOf(tests, 'controlplane/src/ingress/http/app.ts', ['createApp']), [
      'bench/rest-read.ts',
      'test/controlplane/governance/approvals/approval-routes.test.ts',
      'test/controlplane/governance/auth/route-auth.test.ts',
      'test/controlplane/governance/policy/policy-fixture.ts',
      // The CLI against a stand-in server's /v1/sessions routes.
      'test/controlplane/ingress/cli/session-command.test.ts',
      'test/controlplane/ingress/dashboard/dashboard-fixture.ts',
      // A row another replica owns, and a stub of the replica commands.
      'test/controlplane/ingress/dashboard/replica-controls.test.ts',
      'test/controlplane/ingress/http/support/full-app.ts',
      'test/controlplane/ingress/http/task-events.test.ts',
      'test/controlplane/ingress/http/task-routes.test.ts',
      'test/controlplane/ingress/http/task-tenancy.test.ts',
      'test/controlplane/tasks/task-stuck.test.ts',
      // Scope and tenant checks of /v1/sessions over a session service with stub transfers.
      'test/security/session-tenants.test.ts',
      // Link and session checks of /takeover over a stub registry.
      'test/security/takeover-link-auth.test.ts',
    ]);
  });
});
