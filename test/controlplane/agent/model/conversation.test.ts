import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Conversation } from '../../../../controlplane/src/agent/model/conversation.js';
import type { ModelImage } from '../../../../controlplane/src/agent/model/image-encoder.js';

const image = (n: number): ModelImage => ({
  dataUrl: `data:image/jpeg;base64,IMG${n}`,
  width: 28,
  height: 28,
  bytes: 4,
  reencoded: false,
});
const urls = (conversation: Conversation) =>
  conversation
    .messages()
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .flatMap((part) => (part.type === 'image_url' ? [part.image_url.url.slice(-4)] : []));

describe('Conversation', () => {
  it('starts with the prompt and alternates screenshots and replies', () => {
    const conversation = new Conversation('PROMPT', 5);
    conversation.addScreenshot(image(1));
    conversation.addReply('reply 1');
    conversation.addScreenshot(image(2));
    const messages = conversation.messages();
    assert.deepEqual(
      messages.map((m) => m.role),
      ['user', 'user', 'assistant', 'user'],
    );
    assert.equal(messages[0]?.content, 'PROMPT');
    assert.equal(messages[2]?.content, 'reply 1');
  });

  it('sends only the newest N screenshots but keeps every reply', () => {
    const conversation = new Conversation('P', 3);
    for (let n = 1; n <= 7; n++) {
      conversation.addScreenshot(image(n));
      conversation.addReply(`r${n}`);
    }
    conversation.addScreenshot(image(8));
    assert.deepEqual(urls(conversation), ['IMG6', 'IMG7', 'IMG8']);
    const replies = conversation.messages().filter((m) => m.role === 'assistant');
    assert.equal(replies.length, 7);
  });

  it('attaches notes to the next screenshot and keeps them after the image leaves the window', () => {
    const conversation = new Conversation('P', 1);
    conversation.addScreenshot(image(1));
    conversation.addReply('bad');
    conversation.addNote('your last reply could not be used');
    conversation.addScreenshot(image(2));
    conversation.addReply('ok');
    conversation.addScreenshot(image(3));
    const texts = conversation
      .messages()
      .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .filter((part) => part.type === 'text');
    assert.equal(texts.length, 1);
    assert.deepEqual(urls(conversation), ['IMG3']);
  });
});
