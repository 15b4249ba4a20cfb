// The setup CLI runs commands through hostd's CommandRunner port and its ExecFileRunner adapter,
// imported by relative path so there is one implementation of the seam.
export type {
  CommandRunner,
  RunOptions,
  RunResult,
} from '../../../hostd/src/runner/command-runner.js';
export { ExecFileRunner } from '../../../hostd/src/runner/exec-file-runner.js';
