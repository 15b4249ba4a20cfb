// `clawdie hosts …` as an operator runs it: its own process, the data directory's SQLite file.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parseCommand } from '../../../../controlplane/src/ingress/cli/args.js';
import { runClawdie } from '../../../support/clawdie-cli.js';

const dataDir = mkdtempSync(join(tmpdir(), 'clawdie-hosts-cli-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));
const env = { CLAWDIE_DATA_DIR: dataDir };

describe('clawdie hosts', () => {
  it('parses labels strictly', () => {
    assert.deepEqual(
      parseCommand([
        'hosts',
        'add',
        'n1',
        '--url',
        'http://h:1',
        '--label',
        'os=freebsd',
        '--label',
        'region=eu',
      ]),
      {
        name: 'hosts-add',
        host: 'n1',
        url: 'http://h:1',
        labels: { os: 'freebsd', region: 'eu' },
        capacity: 4,
      },
    );
    assert.throws(
      () => parseCommand(['hosts', 'add', 'n1', '--url', 'u', '--label', 'os']),
      /KEY=VALUE/,
    );
    assert.throws(
      () => parseCommand(['hosts', 'add', 'n1', '--url', 'u', '--label', 'a=1', '--label', 'a=2']),
      /given twice/,
    );
    assert.throws(() => parseCommand(['hosts', 'add', 'n1']), /--url/);
  });

  it('adds (token alone on stdout), lists, drains, resumes and removes a host', async () => {
    const added = await runClawdie(
      [
        'hosts',
        'add',
        'bsd-1',
        '--url',
        'http://10.0.0.5:7300',
        '--label',
        'os=freebsd',
        '--capacity',
        '8',
      ],
      env,
    );
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /^[A-Za-z0-9_-]{43}\n$/);
    assert.match(added.stderr, /CLAWDIE_HOSTD_TOKEN/);
    const token = added.stdout.trim();

    const again = await runClawdie(['hosts', 'add', 'bsd-1', '--url', 'http://10.0.0.6:7300'], env);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /HOST_EXISTS/);

    const listed = await runClawdie(['hosts', 'list'], env);
    assert.equal(listed.code, 0, listed.stderr);
    const [header, row] = listed.stdout.trim().split('\n');
    assert.match(header ?? '', /^NAME\s+STATE\s+HEALTH\s+CLONES/);
    assert.match(
      row ?? '',
      /^bsd-1\s+active\s+unknown\s+0\/8\s+-\s+os=freebsd\s+http:\/\/10\.0\.0\.5:7300/,
    );
    const json = await runClawdie(['hosts', 'list', '--json'], env);
    assert.equal(JSON.parse(json.stdout).hosts[0].capacity, 8);
    assert.equal(`${listed.stdout}${json.stdout}`.includes(token), false);

    assert.equal((await runClawdie(['hosts', 'drain', 'bsd-1'], env)).code, 0);
    assert.match((await runClawdie(['hosts', 'list'], env)).stdout, /bsd-1\s+draining/);
    assert.equal((await runClawdie(['hosts', 'resume', 'bsd-1'], env)).code, 0);
    assert.match((await runClawdie(['hosts', 'list'], env)).stdout, /bsd-1\s+active/);
    assert.equal((await runClawdie(['hosts', 'remove', 'bsd-1'], env)).code, 0);
    const gone = await runClawdie(['hosts', 'remove', 'bsd-1'], env);
    assert.equal(gone.code, 2);
    assert.match(gone.stderr, /HOST_NOT_FOUND: no host named bsd-1/);
    assert.match((await runClawdie(['hosts', 'list'], env)).stdout, /no jail hosts registered/);
  });
});
