// The fake pfctl's rule parser and printer: the filter-rule forms hostd's anchors use, parsed as
// sbin/pfctl/parse.y does and printed back as sbin/pfctl/pfctl_parser.c print_rule() does
// (checked against freebsd-src sbin/pfctl/parse.y `filter_rule`/`fromto`/`port_item`/`flags`/
// `filter_opt` and pfctl_parser.c print_rule()/print_fromto()/print_port()/print_op()).
// Anything else — a word out of place, a port on a non-tcp/udp rule, `flags` without tcp — is a
// syntax error, which pfctl reports as `FILE:LINE: …` and then refuses the whole file
// ("Syntax error in config file: pf rules not loaded", exit 1), loading nothing.
//
// Not modelled: macros, tables, lists `{ … }`, interface-name addresses, route options, states
// options other than `keep state`/`no state`, and port names (print_port() prints an
// /etc/services name when getservbyport() finds one; the model prints every port numerically,
// as for a port without an /etc/services entry).

export interface ParsedAnchor {
  /** The rules as `pfctl -a ANCHOR -sr` prints them. */
  printed: string[];
  /** `FILE:LINE: message` lines, as pfctl's yyerror() prints them; empty when loaded. */
  errors: string[];
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(\/(\d{1,2}))?$/;
const PORT_OPS = new Set(['=', '!=', '<', '<=', '>', '>=']);
const TCP_FLAGS = /^[FSRPAUEW]*\/[FSRPAUEW]+$/;

/** Parses every non-empty, non-comment line of `text` (an anchor file) as one filter rule. */
export function parseAnchorFile(path: string, text: string): ParsedAnchor {
  const printed: string[] = [];
  const errors: string[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.replace(/#.*$/, '').trim();
    if (line === '') return;
    const rule = parseRule(line.split(/\s+/));
    if (typeof rule === 'string') errors.push(`${path}:${index + 1}: ${rule}`);
    else printed.push(rule.printed);
  });
  return { printed, errors };
}

/** One filter rule, or the message parse.y would give. */
function parseRule(words: readonly string[]): { printed: string } | string {
  let i = 0;
  const peek = () => words[i];
  const take = (word: string): boolean => {
    if (words[i] !== word) return false;
    i += 1;
    return true;
  };
  const out: string[] = [];
  const action = words[i++];
  if (action === 'pass') out.push('pass');
  else if (action === 'block') {
    // print_rule(): a plain `block` prints with the default drop policy named.
    if (!take('return')) take('drop');
    out.push(words[i - 1] === 'return' ? 'block return' : 'block drop');
  } else return 'syntax error';
  for (const word of ['in', 'out']) if (take(word)) out.push(word);
  if (take('log')) out.push('log');
  if (take('quick')) out.push('quick');
  if (take('on')) {
    const negated = take('!');
    const name = words[i++];
    if (name === undefined || !/^[A-Za-z][\w.]*$/.test(name)) return 'syntax error';
    out.push(`on ${negated ? '! ' : ''}${name}`);
  }
  for (const af of ['inet', 'inet6']) if (take(af)) out.push(af);
  let proto: string | null = null;
  if (take('proto')) {
    proto = words[i++] ?? '';
    if (!/^(tcp|udp|icmp|icmp6|\d+)$/.test(proto)) return `unknown protocol ${proto}`;
    out.push(`proto ${proto}`);
  }
  const hosts = parseHosts(words, i, proto);
  if (typeof hosts === 'string') return hosts;
  i = hosts.next;
  out.push(hosts.printed);
  let flags: string | null = null;
  let state: string | null = null;
  while (i < words.length) {
    if (take('flags')) {
      flags = words[i++] ?? '';
      if (!TCP_FLAGS.test(flags)) return `bad flags ${flags}`;
      if (proto !== 'tcp') return 'flags only apply to tcp';
    } else if (peek() === 'keep' || peek() === 'no') {
      const kind = words[i++];
      if (!take('state')) return 'syntax error';
      state = `${kind} state`;
    } else return 'syntax error';
  }
  // FreeBSD's pf keeps state on pass rules by default, with flags S/SA on tcp (parse.y
  // `filter_rule`: "keep state" and "flags S/SA" default unless `no state`); print_rule() prints
  // both for such a rule.
  if (action === 'pass' && state !== 'no state') {
    if (proto === 'tcp' && flags === null) flags = 'S/SA';
    state = 'keep state';
  }
  if (flags !== null) out.push(`flags ${flags}`);
  if (state !== null) out.push(state);
  return { printed: out.join(' ') };
}

interface Hosts {
  printed: string;
  next: number;
}

/** `all`, or `from HOST [port …] to HOST [port …]` (parse.y `fromto`, `ipportspec`). */
function parseHosts(words: readonly string[], start: number, proto: string | null): Hosts | string {
  let i = start;
  if (words[i] === 'all') return { printed: 'all', next: i + 1 };
  const parts: string[] = [];
  let ports = false;
  for (const keyword of ['from', 'to']) {
    if (words[i] !== keyword) {
      parts.push(`${keyword} any`);
      continue;
    }
    i += 1;
    const host = words[i++] ?? '';
    if (host !== 'any' && !validIpv4(host)) return `could not parse host specification`;
    // print_addr() leaves out a /32 mask.
    let printed = `${keyword} ${host.replace(/\/32$/, '')}`;
    if (words[i] === 'port') {
      i += 1;
      const op = PORT_OPS.has(words[i] ?? '') ? (words[i++] ?? '=') : '=';
      const port = words[i++] ?? '';
      if (!/^\d+$/.test(port) || Number(port) > 65535) return `illegal port value ${port}`;
      printed += ` port ${op} ${Number(port)}`;
      ports = true;
    }
    parts.push(printed);
  }
  if (ports && proto !== 'tcp' && proto !== 'udp') return 'port only applies to tcp/udp';
  // print_fromto(): any to any without ports prints as `all`.
  const printed = parts.join(' ') === 'from any to any' ? 'all' : parts.join(' ');
  return { printed, next: i };
}

function validIpv4(host: string): boolean {
  const match = IPV4.exec(host);
  if (!match) return false;
  const octets = match.slice(1, 5).map(Number);
  const bits = match[6] === undefined ? 32 : Number(match[6]);
  return octets.every((octet) => octet <= 255) && bits <= 32;
}
