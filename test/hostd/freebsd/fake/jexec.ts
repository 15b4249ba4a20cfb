// `/usr/sbin/jexec -U <user> <jail> /usr/local/bin/node -e <probe> host port ms payload`: the
// connection probe hostd runs inside a jail (hostd/src/drivers/inside-probe.ts). The model has no
// packets, so it answers from its PF state, minimally: the first `quick` rule of the anchors that
// name the jail's host end decides (`pass in quick on IF inet proto tcp from A to B port P`,
// `pass in quick on IF all`, `block drop quick on IF all`, as `pfctl -sr` prints them), then the main ruleset's `block drop quick on <group>`; pf's
// default is pass. A passed connection to the host end at the anchor's pass-in port reaches hostd's
// egress proxy, which refuses a CONNECT to a host outside the allowlist (403); any other passed
// connection is answered by a listener (the model assumes one: the check is about the firewall).
import { type FakeState, fail, type ToolResult } from './state.js';

const PASS_IN = /^pass in quick on (\S+) inet proto tcp from (\S+) to (\S+) port (?:= )?(\d+)\b/;
const BLOCK_ALL = /^block drop quick on (\S+) all$/;
const PASS_ALL = /^pass in quick on (\S+) all\b/;
const MAIN_BLOCK = /^block drop (?:log )?quick on (\S+)/;

export function jexecTool(state: FakeState, argv: readonly string[]): ToolResult {
  const [, flag, , jailName = '', node, e, , host = '', port = '', , payload = ''] = argv;
  if (flag !== '-U' || node !== '/usr/local/bin/node' || e !== '-e' || argv.length !== 11) {
    return fail(`fake jexec: only the connection probe is modelled: ${argv.join(' ')}`);
  }
  const jail = state.jails.get(jailName);
  if (!jail || jail.dying) return fail(`jexec: jail "${jailName}" not found`);
  const jailEnd = jail.vnetInterface === null ? null : state.interfaces.get(jail.vnetInterface);
  const hostIf = jailEnd?.peer ?? null;
  const said = (lines: string[], exitCode: number): ToolResult => ({
    exitCode,
    stdout: `${lines.join('\n')}\n`,
    stderr: '',
  });
  if (host.startsWith('127.') || hostIf === null || jail.serviceAddress === null) {
    return said(['error ECONNREFUSED'], 1); // its own lo0, or no network at all
  }
  const verdict = decide(state, hostIf, jail.serviceAddress, host, Number(port));
  if (verdict === 'block') return said(['timeout'], 1);
  if (payload === '') return said(['connected', ''], 0);
  const proxy = verdict === 'proxy' && payload.startsWith('CONNECT ');
  return said(['connected', proxy ? 'answer HTTP/1.1 403 Forbidden' : 'no answer'], 0);
}

function decide(
  state: FakeState,
  hostIf: string,
  from: string,
  to: string,
  port: number,
): 'pass' | 'proxy' | 'block' {
  const rules = [...state.anchors.values()].flat().map((rule) => rule.trim());
  for (const rule of rules.filter((r) => r.includes(` on ${hostIf} `))) {
    const pass = PASS_IN.exec(rule);
    if (pass && pass[1] === hostIf && pass[2] === from && pass[3] === to) {
      if (Number(pass[4]) === port) return 'proxy';
      continue;
    }
    if (PASS_ALL.exec(rule)?.[1] === hostIf) return 'pass';
    if (BLOCK_ALL.exec(rule)?.[1] === hostIf) return 'block';
  }
  const groups = state.interfaces.get(hostIf)?.groups ?? new Set<string>();
  for (const rule of state.mainRules) {
    const target = MAIN_BLOCK.exec(rule.trim())?.[1];
    if (target !== undefined && (target === hostIf || groups.has(target))) return 'block';
  }
  return 'pass';
}
