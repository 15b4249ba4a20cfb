// Issue 22 (1): a provider's own safety signal becomes a Clawdie approval. The Gemini fake flags
// its click with `safety_decision: require_confirmation` (and, like the real API, refuses a next
// request that does not acknowledge it). Through the one composition root, a tenant policy and a
// real page in Chromium: approved, the click runs and the acknowledgement goes back; denied, the
// task ends APPROVAL_DENIED and nothing is clicked. Both audited as `model_safety`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LocalJailService } from '../../controlplane/src/browser/provider/local-jail-service.js';
import { requires } from '../support/capabilities.js';
import { goldenFake } from '../support/golden/golden-fakes.js';
import {
  type GoldenProfile,
  type GoldenScreen,
  runGolden,
  startGoldenJail,
} from '../support/golden/golden-run.js';
import { type StaticSite, startStaticSite } from '../support/static-site.js';

const screen: GoldenScreen = { width: 1280, height: 800, dpr: 1 };
const gemini = goldenFake('gemini-computer-use');

describe('e2e: a provider safety signal is a supervisor approval', requires('chromium'), () => {
  let site: StaticSite;
  let jail: LocalJailService;
  let entry: GoldenProfile;
  before(async () => {
    entry = gemini;
    site = await startStaticSite({});
    jail = await startGoldenJail(screen);
  });
  after(async () => {
    await jail?.stop();
    await site?.close();
  });

  it('runs the flagged click once a supervisor approves, and acknowledges it to the provider', async () => {
    const outcome = await runGolden(entry, screen, jail, site, {
      fake: { requireConfirmation: true },
      answer: 'approve',
    });
    assert.equal(outcome.result.status, 'finished', JSON.stringify(outcome.result));
    assert.equal(outcome.clicks.length, 1);
    assert.deepEqual(
      outcome.approvals.map((approval) => approval.kind),
      ['model_safety'],
    );
    assert.match(outcome.approvals[0]?.reason ?? '', /model provider flagged this step/);
    assert.match(JSON.stringify(outcome.requests[1]?.body), /"safety_acknowledgement":"true"/);
  });

  it('ends the task without clicking when the supervisor denies', async () => {
    const outcome = await runGolden(entry, screen, jail, site, {
      fake: { requireConfirmation: true },
      answer: 'deny',
    });
    assert.equal(outcome.result.status, 'error');
    assert.match(JSON.stringify(outcome.result), /APPROVAL_DENIED/);
    assert.deepEqual(outcome.clicks, []);
    assert.equal(outcome.requests.length, 1, 'nothing more is asked of the model');
  });
});
