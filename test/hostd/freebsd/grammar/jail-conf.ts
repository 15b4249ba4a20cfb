// Checks a jail.conf(5) file as the driver renders it (one jail block, `name;`, `name = "value";`,
// `name += "value";`): every parameter name against jail-params.ts and every exec.* command line
// (split on spaces: the driver never quotes inside them) against validateArgv.
import { jailParameterProblems } from './jail-params.js';
import { validateArgv } from './validate-argv.js';

const COMMAND_PARAMETERS =
  /^exec\.(prepare|prestart|created|start|poststart|prestop|stop|poststop|release)$/;

export function validateJailConf(text: string): string[] {
  const problems: string[] = [];
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (!/^[A-Za-z0-9_*.-]+ \{$/.test(lines[0] ?? '') || lines.at(-1) !== '}') {
    return ['jail.conf: expected one `name {` … `}` block'];
  }
  for (const line of lines.slice(1, -1)) {
    const match = /^([a-z0-9_.]+)(?:\s*(\+?=)\s*(?:"([^"]*)"|([^";\s]+)))?;$/.exec(line);
    if (!match) {
      problems.push(`jail.conf: cannot parse "${line}"`);
      continue;
    }
    const [, name = '', , quoted, bare] = match;
    const value = quoted ?? bare;
    problems.push(...jailParameterProblems(name, value).map((p) => `jail.conf: ${p}`));
    if (value !== undefined && COMMAND_PARAMETERS.test(name)) {
      problems.push(...validateArgv(value.split(' ')).map((p) => `jail.conf ${name}: ${p}`));
    }
  }
  return problems;
}
