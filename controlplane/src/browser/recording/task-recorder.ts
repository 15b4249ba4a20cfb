import { join } from 'node:path';

/** One task's recording in progress; `stop()` finalises it (idempotent, never rejects). */
export interface TaskRecording {
  /** Where the video is written (it exists only once finalised with at least one frame). */
  readonly path: string;
  stop(): Promise<void>;
}

/**
 * Records a task's browser while it runs (task service: started once the browser is leased,
 * stopped on every ending before the result is published). Never throws: a recording that cannot
 * be made is logged and the task runs on without it.
 */
export interface TaskRecorder {
  start(taskId: string): TaskRecording;
}

/** `<dataDir>/traces/<taskId>/recording.mp4`, next to the task's screenshots. */
export function recordingPath(dataDir: string, taskId: string): string {
  return join(dataDir, 'traces', taskId, 'recording.mp4');
}
