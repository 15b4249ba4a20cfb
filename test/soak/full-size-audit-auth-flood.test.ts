// `npm run test:soak`: test/security/audit-auth-flood.test.ts at the size of its report — 5,000
// junk requests without a valid token (issue 12) — where `npm test` runs a quicker size of the same
// suite (test/support/test-size.ts).
process.env.CLAWDIE_TEST_FULL_SIZE = '1';
await import('../security/audit-auth-flood.test.js');
