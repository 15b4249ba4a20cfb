// `npm run test:soak`: test/security/audit-refusal-flood.test.ts at the size of its report — 2,000
// refused requests to each reported route (issue 19) — where `npm test` runs a quicker size of the
// same suite (test/support/test-size.ts).
process.env.CLAWDIE_TEST_FULL_SIZE = '1';
await import('../security/audit-refusal-flood.test.js');
