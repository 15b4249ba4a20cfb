// Asks a clone's egress proxy (on the host side) to CONNECT somewhere, as the clone's browser
// would: for tests that need a real refusal (or a real pass) without a browser. The same probe
// `clawdie setup --verify-host` uses on a real host.
export { connectThrough, getThrough } from '../../../setup/src/verify/egress-probe.js';
