// Issue 23's false-success traps as local pages: each is one button filling the viewport, so a
// click anywhere presses it. `/pay-500` shows "Submitted!" while its POST got 500; `/order` is a
// form POST answered 303 → 200; `/claim` sends nothing at all; `/offline` POSTs by fetch to a port
// nobody listens on; `/many` fires 60 fetches (the per-step cap).
import { htmlPage, refusedUrl, type StaticSite, startStaticSite } from './static-site.js';

const button = (label: string, onclick: string) =>
  `<button id="b" style="position:fixed;inset:0;width:100%;height:100%;font-size:40px" onclick="${onclick}">${label}</button>`;

const show = (text: string) => `document.body.innerHTML='<h1>${text}</h1>'`;

export async function startEvidenceTraps(): Promise<StaticSite> {
  const refused = await refusedUrl();
  return startStaticSite({
    '/pay-500': htmlPage(
      'pay',
      button(
        'Pay EUR 4,999',
        `fetch('/api/pay?card=4111&amp;cvc=123', {method: 'POST', body: 'amount=4999'}).catch(() => {}); ${show('Submitted!')}`,
      ),
    ),
    '/api/pay': { status: 500, contentType: 'application/json', body: '{"error":"boom"}' },
    '/order': htmlPage(
      'order',
      `<form method="post" action="/order/submit"><input type="hidden" name="sku" value="42">${button('Place order', '')}</form>`,
    ),
    '/order/submit': { status: 303, headers: { location: '/order/thanks' } },
    '/order/thanks': htmlPage('thanks', '<h1>Thank you, order placed</h1>'),
    '/claim': htmlPage('claim', button('Pay EUR 4,999', '')),
    '/offline': htmlPage(
      'offline',
      button(
        'Send',
        `fetch('${refused}api', {method: 'POST', body: 'x'}).catch(() => {}); ${show('Sent!')}`,
      ),
    ),
    '/many': htmlPage(
      'many',
      button('Load', `for (let i = 0; i < 60; i++) fetch('/api/item?i=' + i).catch(() => {})`),
    ),
    '/api/item': { contentType: 'application/json', body: '{}' },
  });
}
