// ifconfig(8): the keywords the driver uses, from sbin/ifconfig (SOURCES.ifconfig): basic_cmds[] of
// ifconfig.c (up/down/name/destroy/create/description/mtu/vnet), the address families (`inet ADDR[/LEN]`),
// ifgroup.c's `group`/`-group` (a group name may not end in a digit, < IFNAMSIZ), and `-l`.
// Interface names are limited to IFNAMSIZ - 1 = 15 characters.

const FLAGS = new Set([
  'up',
  'down',
  'create',
  'destroy',
  'arp',
  '-arp',
  'debug',
  '-debug',
  'alias',
  '-alias',
  'delete',
  'remove',
  'add',
]);
const WITH_ARGUMENT = new Set([
  'name',
  'group',
  '-group',
  'mtu',
  'description',
  'descr',
  'netmask',
  'broadcast',
  'metric',
  'vnet',
  '-vnet',
]);

function interfaceName(name: string): string[] {
  if (!/^[A-Za-z][A-Za-z0-9_.]*$/.test(name)) return [`bad interface name "${name}"`];
  return name.length > 15 ? [`interface name "${name}" longer than 15 characters`] : [];
}

function inetAddress(word: string): string[] {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:\/(\d{1,2}))?$/.exec(word);
  if (!match) return [`bad inet address "${word}"`];
  const octets = match.slice(1, 5).map(Number);
  const bits = match[5] === undefined ? 0 : Number(match[5]);
  return octets.some((o) => o > 255) || bits > 32 ? [`bad inet address "${word}"`] : [];
}

export function validateIfconfig(args: readonly string[]): string[] {
  const problems: string[] = [];
  const [first = '', ...words] = args;
  if (first === '-l') {
    return words.every(
      (w) => w === 'up' || w === 'down' || w === 'ether' || w === '-d' || w === '-u',
    )
      ? []
      : ['ifconfig -l: unexpected arguments'];
  }
  if (first.startsWith('-')) return [`ifconfig: option ${first} not modelled`];
  problems.push(...interfaceName(first));
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index] ?? '';
    if (FLAGS.has(word)) continue;
    if (word === 'inet') {
      index += 1;
      problems.push(...inetAddress(words[index] ?? ''));
      continue;
    }
    if (!WITH_ARGUMENT.has(word)) {
      problems.push(`unknown keyword "${word}"`);
      continue;
    }
    index += 1;
    const value = words[index];
    if (value === undefined) {
      problems.push(`"${word}" needs an argument`);
    } else if (word === 'name') {
      problems.push(...interfaceName(value));
    } else if (word === 'group' || word === '-group') {
      if (/\d$/.test(value)) problems.push('setifgroup: group names may not end in a digit');
      if (value.length >= 16) problems.push('setifgroup: group name too long');
    }
  }
  return problems.map((p) => `ifconfig: ${p}`);
}
