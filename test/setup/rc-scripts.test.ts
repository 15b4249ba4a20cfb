// The FreeBSD rc.d scripts (setup/freebsd/rc.d): valid sh, rc.subr conventions, and a daemon(8)
// command line its real option grammar accepts. No FreeBSD here: each script runs under sh with a
// stand-in /etc/rc.subr that loads a test rc.conf and prints what run_rc_command would start.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const rcDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'setup', 'freebsd', 'rc.d');

/**
 * daemon(8)'s short options, from freebsd-src usr.sbin/daemon/daemon.c (commit 0049f48b38d2):
 * `+cfHSp:P:ru:o:s:l:t:m:R:T:h` — a letter followed by ':' takes an argument; '+' stops at the
 * first operand (the command).
 */
const DAEMON_OPTIONS = 'cfHSp:P:ru:o:s:l:t:m:R:T:h';

function parseDaemonArgv(argv: string[]): { options: Map<string, string>; command: string[] } {
  const options = new Map<string, string>();
  let index = 0;
  for (; index < argv.length; index += 1) {
    const arg = argv[index] ?? '';
    if (arg === '--') {
      index += 1;
      break;
    }
    if (!arg.startsWith('-') || arg === '-') break;
    for (let at = 1; at < arg.length; at += 1) {
      const letter = arg[at] ?? '';
      const spec = DAEMON_OPTIONS.indexOf(letter);
      if (spec < 0) throw new Error(`daemon: illegal option -- ${letter}`);
      if (DAEMON_OPTIONS[spec + 1] !== ':') {
        options.set(letter, '');
        continue;
      }
      const value = at + 1 < arg.length ? arg.slice(at + 1) : argv[++index];
      if (value === undefined) throw new Error(`daemon: option requires an argument -- ${letter}`);
      options.set(letter, value);
      break;
    }
  }
  return { options, command: argv.slice(index) };
}

const newsyslogFile = join(rcDir, '..', 'newsyslog.conf.d', 'clawdie.conf');

interface NewsyslogEntry {
  logfile: string;
  owner: string | null;
  mode: string;
  count: string;
  size: string;
  when: string;
  flags: string;
  pidFile: string | null;
  signal: string | null;
}

/**
 * newsyslog.conf(5) (freebsd-src usr.sbin/newsyslog/newsyslog.conf.5): `#` starts a comment;
 * fields are logfile, an optional owner:group (recognised by its colon), mode, count, size, when,
 * then optional flags, /pid_file (must start with /) and signal number.
 */
function newsyslogEntries(): NewsyslogEntry[] {
  const lines = readFileSync(newsyslogFile, 'utf8').split('\n');
  return lines
    .map((line) => line.replace(/#.*/, '').trim())
    .filter((line) => line !== '')
    .map((line) => {
      const fields = line.split(/\s+/);
      const logfile = fields.shift() ?? '';
      const owner = fields[0]?.includes(':') ? (fields.shift() ?? null) : null;
      const [mode = '', count = '', size = '', when = '', flags = '', pidFile, signal] = fields;
      assert.ok(fields.length <= 7, `too many fields: ${line}`);
      return {
        logfile,
        owner,
        mode,
        count,
        size,
        when,
        flags,
        pidFile: pidFile ?? null,
        signal: signal ?? null,
      };
    });
}

const STUB_RC_SUBR = `
load_rc_config() { [ -f "$RC_CONF" ] && . "$RC_CONF"; }
run_rc_command() {
  printf 'name=%s\\nrcvar=%s\\ncommand=%s\\npidfile=%s\\n' "$name" "$rcvar" "$command" "$pidfile"
  eval "printf 'enable=%s\\\\nchdir=%s\\\\nenv_file=%s\\\\n' \\"\\$\${name}_enable\\" \\"\\$\${name}_chdir\\" \\"\\$\${name}_env_file\\""
  printf 'required_files=%s\\nprecmd=%s\\n' "$required_files" "$start_precmd"
  printf 'args=%s\\n' "$command_args"
}
`;

describe('FreeBSD rc.d scripts', () => {
  const work = mkdtempSync(join(tmpdir(), 'clawdie-rc-'));
  after(() => rmSync(work, { recursive: true, force: true }));
  writeFileSync(join(work, 'rc.subr'), STUB_RC_SUBR);

  function render(script: string, rcConf: string): Record<string, string> {
    const text = readFileSync(join(rcDir, script), 'utf8').replace(
      '. /etc/rc.subr',
      `. ${work}/rc.subr`,
    );
    const path = join(work, script);
    writeFileSync(path, text);
    writeFileSync(join(work, 'rc.conf'), rcConf);
    const out = execFileSync('sh', [path, 'start'], {
      encoding: 'utf8',
      env: { RC_CONF: join(work, 'rc.conf'), PATH: '/usr/bin:/bin' },
    });
    return Object.fromEntries(
      out
        .trim()
        .split('\n')
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
  }

  for (const [script, entry, extra] of [
    ['clawdie', 'controlplane/dist/main.js', 'clawdie_runas="www"'],
    ['clawdie_hostd', 'hostd/dist/main.js', ''],
  ] as const) {
    it(`${script}: parses with sh -n and names itself consistently`, () => {
      const path = join(rcDir, script);
      execFileSync('sh', ['-n', path]);
      const text = readFileSync(path, 'utf8');
      assert.match(text, new RegExp(`^# PROVIDE: ${script}$`, 'm'));
      assert.match(text, /^# KEYWORD: shutdown$/m);
      assert.match(
        text,
        new RegExp(`^: \\$\\{${script}_enable:="NO"\\}$`, 'm'),
        'off unless enabled',
      );
      assert.ok(
        !new RegExp(`\\$\\{${script}_user\\b`).test(text),
        `${script}_user would make rc.subr su itself`,
      );
    });

    it(`${script}: starts node under daemon(8) with restart, pidfiles, a log and its rc.conf settings`, () => {
      const vars = render(
        script,
        `${script}_enable="YES"\n${script}_dir="/srv/clawdie"\n${extra}\n`,
      );
      assert.equal(vars.name, script);
      assert.equal(vars.rcvar, `${script}_enable`);
      assert.equal(vars.enable, 'YES');
      assert.equal(vars.command, '/usr/sbin/daemon');
      assert.equal(vars.chdir, '/srv/clawdie');
      assert.match(vars.env_file ?? '', /^\/usr\/local\/etc\/clawdie\/.+\.env$/);
      assert.ok(vars.required_files?.includes(`/srv/clawdie/${entry}`));
      const { options, command } = parseDaemonArgv((vars.args ?? '').split(/\s+/));
      assert.equal(options.get('P'), vars.pidfile, 'rc.subr signals the supervisor named in -P');
      assert.ok(options.has('r') && Number(options.get('R')) >= 1, 'restarts after a crash');
      assert.ok(options.get('o')?.startsWith('/var/log/'));
      assert.ok(options.has('H'), 'reopens its -o log on SIGHUP (newsyslog rotates it)');
      const rotated = newsyslogEntries().find((entry) => entry.logfile === options.get('o'));
      assert.ok(rotated, `newsyslog.conf.d entry for ${options.get('o')}`);
      assert.equal(rotated.pidFile, vars.pidfile, 'newsyslog signals the supervisor, not node');
      assert.equal(rotated.signal, '1', 'SIGHUP: the signal daemon -H reopens on');
      assert.deepEqual(command, ['/usr/local/bin/node', `/srv/clawdie/${entry}`]);
      if (script === 'clawdie')
        assert.equal(options.get('u'), 'www', 'the controlplane drops root');
      else assert.equal(options.has('u'), false, 'hostd needs root for jails, ZFS and PF');
    });
  }

  it('clawdie: the start precmd fails, visibly, when clawdie_runas does not exist', () => {
    const text = readFileSync(join(rcDir, 'clawdie'), 'utf8').replace(
      '. /etc/rc.subr',
      // rc.subr's warn() and a stub install(1); run_rc_command runs the precmd as rc.subr does.
      [
        'warn() { echo "WARNING: $*" >&2; }',
        'install() { :; }',
        'load_rc_config() { [ -f "$RC_CONF" ] && . "$RC_CONF"; }',
        'run_rc_command() { $start_precmd || { warn "failed precmd routine for $name"; return 1; }; echo started; }',
      ].join('\n'),
    );
    const path = join(work, 'clawdie-precmd');
    writeFileSync(path, text);
    const start = (runas: string) => {
      writeFileSync(join(work, 'rc.conf'), `clawdie_runas="${runas}"\n`);
      try {
        const stdout = execFileSync('sh', [path, 'start'], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { RC_CONF: join(work, 'rc.conf'), PATH: '/usr/bin:/bin' },
        });
        return { status: 0, stdout, stderr: '' };
      } catch (error) {
        const failed = error as { status: number; stdout: string; stderr: string };
        return { status: failed.status, stdout: failed.stdout, stderr: failed.stderr };
      }
    };
    const missing = start('nosuchuser-clawdie');
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /user nosuchuser-clawdie does not exist/);
    assert.match(missing.stderr, /failed precmd routine for clawdie/);
    assert.equal(start('root').stdout, 'started\n');
  });

  it('the newsyslog.conf.d entry follows newsyslog.conf(5) field by field', () => {
    const entries = newsyslogEntries();
    assert.equal(entries.length, 2);
    for (const entry of entries) {
      assert.match(entry.logfile, /^\/var\/log\//);
      assert.match(entry.owner ?? '', /^[\w-]*:[\w-]*$/, 'owner:group keeps its colon');
      assert.match(entry.mode, /^[0-7]{3,4}$/);
      assert.match(entry.count, /^\d+$/);
      assert.match(entry.size, /^(\d+|\*)$/, 'kilobytes or *');
      assert.match(entry.when, /^(\*|\d*@[\dT]*|\d*\$[DWM][\dDL]*|\d+)$/);
      assert.match(entry.flags, /^[-BCDGJXNRUZ]+$/);
      assert.ok(!entry.flags.includes('N'), 'a process must be signalled to reopen the log');
      assert.match(entry.pidFile ?? '', /^\//, 'the pid file field must start with /');
      assert.match(entry.signal ?? '', /^\d+$/);
    }
  });

  it('the daemon(8) grammar rejects what the real daemon rejects', () => {
    assert.throws(() => parseDaemonArgv(['-x', 'node']), /illegal option -- x/);
    assert.throws(() => parseDaemonArgv(['-P']), /requires an argument -- P/);
    assert.deepEqual(parseDaemonArgv(['-rP', '/p', 'node', '-u', 'x']).command, [
      'node',
      '-u',
      'x',
    ]);
  });
});
