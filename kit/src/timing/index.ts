// Public surface of `@clawdie/kit/timing`: the one `sleep` and the one health poller.
export {
  fetchHealthProbe,
  type HealthProbe,
  type PollHealthOptions,
  type PollHealthResult,
  pollHealth,
} from './poll-health.js';
export { sleep } from './sleep.js';
