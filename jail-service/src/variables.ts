// Public surface of `@clawdie/jail-service/variables`: the environment variables a jail-service
// reads, so a parent (the controlplane's local mode) passes exactly those and nothing else.
export { JAIL_SERVICE_VARIABLES } from './config.js';
