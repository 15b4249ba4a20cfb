// The size of a flood or fuzz suite: a quick one in `npm test`, the size of the report that found
// the bug in `npm run test:soak`, whose files set CLAWDIE_TEST_FULL_SIZE=1 and then import the
// same suites (test/soak/full-size-*.test.ts). The quick size still crosses every limit under test
// many times over; only the repetition is shorter.
export const fullSize = process.env.CLAWDIE_TEST_FULL_SIZE === '1';

/** `quick` in `npm test`; `full` under the soak run. */
export function sized(quick: number, full: number): number {
  return fullSize ? full : quick;
}
