// The fake FreeBSD host's choke point: every argv it is asked to run is checked against the real
// tools' grammar, and `jail -f FILE -c` also checks the jail.conf the driver wrote to FILE.
import { bsdGetopt, has, values } from './getopt.js';
import { validateJailConf } from './jail-conf.js';
import { validateArgv } from './validate-argv.js';

export function grammarProblems(
  argv: readonly string[],
  readFile: (path: string) => string | undefined,
): string[] {
  const problems = validateArgv(argv);
  if (argv[0] !== '/usr/sbin/jail' || problems.length > 0) return problems;
  const parsed = bsdGetopt(argv.slice(1), 'cde:f:hiJ:lmn:p:qrRs:u:U:v');
  const [file] = values(parsed, 'f');
  if (!has(parsed, 'c') || file === undefined) return problems;
  const text = readFile(file);
  // A missing file is the tool's runtime failure (the fake jail(8) reports it), not a grammar one.
  return text === undefined ? [] : validateJailConf(text);
}
