// Xvfb (x11-servers/xorg-vfbserver, /usr/local/bin/Xvfb; SOURCES.xvfb): the server walks argv once,
// asking the vfb ddx first (hw/vfb/InitOutput.c ddxProcessArgument: `-screen n WxHxD` …), then
// os/utils.c ProcessCommandLine (`:display`, `-nolisten trans`, `-noreset`, `-displayfd fd` …);
// any other word is "Unrecognized option" and FatalError (exit 1). Only the words the driver and
// the tests use are modelled; an unmodelled one is reported, never silently accepted.

/** os/utils.c VerifyDisplayName: digits, at most one period followed by 1–2 digits. */
function validDisplayName(name: string): boolean {
  return /^\d+(\.\d{1,2})?$/.test(name) && Number(name.split('.')[0]) <= 2 ** 31 - 1;
}

/** Words taking one value (ProcessCommandLine: `if (++i < argc) … else UseMsg()`). */
const WITH_VALUE = new Set(['-nolisten', '-listen', '-displayfd', '-extension', '+extension']);
/**
 * Extension names `±extension` knows (mi/miinitext.c staticExtensions[] of a vfb build); another
 * name is EnableDisableExtensionError() and exit 1.
 */
const EXTENSIONS = new Set([
  'MIT-SHM',
  'XTEST',
  'SECURITY',
  'XINERAMA',
  'RANDR',
  'GLX',
  'XFree86-Bigfont',
]);
const FLAGS = new Set(['-noreset', '-nocursor']);

export function validateXvfb(args: readonly string[]): string[] {
  const problems: string[] = [];
  let displays = 0;
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i] ?? '';
    if (word === '-screen') {
      // CHECK_FOR_REQUIRED_ARGUMENTS(2); screen 0…254; sscanf "%dx%dx%d" must match 3.
      const [screen, geometry] = [args[i + 1], args[i + 2]];
      if (screen === undefined || geometry === undefined) problems.push('-screen needs n WxHxD');
      else if (!/^\d+$/.test(screen) || Number(screen) >= 255) {
        problems.push(`Invalid screen number ${screen}`);
      } else if (!/^\d+x\d+x\d+$/.test(geometry)) {
        problems.push(`Invalid screen configuration ${geometry}`);
      }
      i += 2;
    } else if (word.startsWith(':')) {
      displays += 1;
      if (!validDisplayName(word.slice(1))) problems.push(`Bad display name: ${word.slice(1)}`);
    } else if (WITH_VALUE.has(word)) {
      const value = args[i + 1];
      if (value === undefined) problems.push(`${word} needs a value`);
      else if (word === '-displayfd' && !/^\d+$/.test(value)) problems.push(`-displayfd ${value}`);
      else if (word.endsWith('extension') && !EXTENSIONS.has(value)) {
        problems.push(`Extension "${value}" is not recognized`);
      }
      i += 1;
    } else if (!FLAGS.has(word)) {
      problems.push(`Unrecognized option: ${word}`);
    }
  }
  if (displays > 1) problems.push('more than one :display');
  return problems.map((problem) => `Xvfb: ${problem}`);
}
