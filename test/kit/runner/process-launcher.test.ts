// The ProcessLauncher contract against both launchers a process can hold: the SpawnLauncher of
// @clawdie/kit/runner (hostd, setup) and the controlplane's launcher over it.
import { processLauncherContract } from './process-launcher.contract.js';

processLauncherContract('SpawnLauncher', 'spawn');
processLauncherContract('controlplane launcher', 'controlplane');
