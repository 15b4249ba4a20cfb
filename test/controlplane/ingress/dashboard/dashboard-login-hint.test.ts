import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCommand } from '../../../../controlplane/src/ingress/cli/args.js';
import {
  ADMIN_TOKEN_COMMAND,
  dashboardLogin,
} from '../../../../controlplane/src/ingress/dashboard/dashboard-login-hint.js';

describe('the banner says how to log in to the dashboard', () => {
  it('prints the one-off token when it made one', () => {
    assert.match(dashboardLogin('tok123', null), /admin token for this run: tok123/);
  });

  it('with auth keys and no admin token, names a command that mints an admin token', () => {
    const hint = dashboardLogin(null, null);
    assert.ok(hint.includes(ADMIN_TOKEN_COMMAND));
    const command = parseCommand(ADMIN_TOKEN_COMMAND.split(' ').slice(2));
    assert.equal(command.name, 'token-create');
    assert.ok('scopes' in command && command.scopes.includes('admin'));
  });

  it('points at CLAWDIE_ADMIN_TOKEN when one is configured, without echoing it', () => {
    const hint = dashboardLogin(null, 'secret-admin-token');
    assert.match(hint, /CLAWDIE_ADMIN_TOKEN/);
    assert.ok(!hint.includes('secret-admin-token'));
  });
});
