import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { captchaOfFrame, captchaOfUrl } from '../../jail-service/src/takeover/captcha-frames.js';

const frame = (facts: Partial<Parameters<typeof captchaOfFrame>[0]>) => ({
  src: '',
  title: '',
  attributes: [],
  id: '',
  ...facts,
});

describe('captcha frame detection', () => {
  it('knows the widgets by where their frames load from', () => {
    assert.equal(captchaOfUrl('https://www.google.com/recaptcha/api2/anchor?k=x'), 'recaptcha');
    assert.equal(
      captchaOfUrl('https://www.recaptcha.net/recaptcha/enterprise/bframe'),
      'recaptcha',
    );
    assert.equal(
      captchaOfUrl('https://newassets.hcaptcha.com/captcha/v1/a/static/hcaptcha.html'),
      'hcaptcha',
    );
    assert.equal(
      captchaOfUrl('https://challenges.cloudflare.com/cdn-cgi/challenge-platform/h/b/turnstile'),
      'turnstile',
    );
    assert.equal(captchaOfUrl('https://example.org/recaptcha-faq'), null);
  });

  it('knows them by their shape when the source says nothing (about:blank, proxied)', () => {
    assert.equal(captchaOfFrame(frame({ title: 'reCAPTCHA' })), 'recaptcha');
    assert.equal(captchaOfFrame(frame({ attributes: ['data-hcaptcha-widget-id'] })), 'hcaptcha');
    assert.equal(
      captchaOfFrame(frame({ title: 'Widget containing a Cloudflare security challenge' })),
      'turnstile',
    );
    assert.equal(captchaOfFrame(frame({ id: 'cf-chl-widget-abc' })), 'turnstile');
    assert.equal(
      captchaOfFrame(frame({ title: 'YouTube video player', src: 'https://x.test/v' })),
      null,
    );
  });
});
