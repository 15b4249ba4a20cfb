// `npm run test:soak`: test/security/input-rest-fuzz.test.ts at the size of its report — 2,000
// fuzzed REST requests (issue 12) — where `npm test` runs a quicker size of the same suite
// (test/support/test-size.ts).
process.env.CLAWDIE_TEST_FULL_SIZE = '1';
await import('../security/input-rest-fuzz.test.js');
