import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatMessage } from '../../../../controlplane/src/agent/model/chat-types.js';
import { Conversation } from '../../../../controlplane/src/agent/model/conversation.js';
import {
  type ModelImage,
  olderCopy,
} from '../../../../controlplane/src/agent/model/image-encoder.js';
import {
  imagesAtOlderQuality,
  imagesLeftOut,
} from '../../../../controlplane/src/agent/profiles/image-window.js';
import { profileNamed } from '../../../../controlplane/src/agent/profiles/index.js';
import { PROFILE_NAMES } from '../../../../controlplane/src/agent/profiles/profile-types.js';
import { uiTars15 } from '../../../../controlplane/src/agent/profiles/ui-tars.js';

const conversationOf = (instruction: string, imageWindow: number) =>
  new Conversation({ profile: uiTars15, instruction, actionSpace: 'browser', imageWindow });
const messagesOf = (conversation: Conversation) => conversation.request().messages as ChatMessage[];
const reply = (text: string) => ({ raw: text, text });
const image = (n: number): ModelImage => ({
  dataUrl: `data:image/jpeg;base64,IMG${n}`,
  base64: `IMG${n}`,
  mediaType: 'image/jpeg',
  width: 28,
  height: 28,
  bytes: 4,
  reencoded: false,
});
/** Screenshot `n` with a lower-quality copy (`LOW<n>`) whose encode records `n` in `made`. */
const withCopy = (n: number, made: number[]): ModelImage => {
  const own = image(n);
  const low = { ...own, dataUrl: `data:image/jpeg;base64,LOW${n}`, base64: `LOW${n}` };
  return {
    ...own,
    older: olderCopy(async () => {
      made.push(n);
      return low;
    }, own),
  };
};
const urls = (conversation: Conversation) =>
  messagesOf(conversation)
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .flatMap((part) => (part.type === 'image_url' ? [part.image_url.url.slice(-4)] : []));

describe('Conversation', () => {
  it('starts with the prompt and alternates screenshots and replies', () => {
    const conversation = conversationOf('PROMPT', 5);
    conversation.addScreenshot(image(1));
    conversation.addReply(reply('reply 1'));
    conversation.addScreenshot(image(2));
    const messages = messagesOf(conversation);
    assert.deepEqual(
      messages.map((m) => m.role),
      ['user', 'user', 'assistant', 'user'],
    );
    assert.match(
      String(messages[0]?.content),
      /^You are a GUI agent\.[\s\S]*## User Instruction\nPROMPT$/,
    );
    assert.equal(messages[2]?.content, 'reply 1');
  });

  it('sends at most the newest N screenshots but keeps every reply', () => {
    const conversation = conversationOf('P', 3);
    for (let n = 1; n <= 7; n++) {
      conversation.addScreenshot(image(n));
      conversation.addReply(reply(`r${n}`));
    }
    conversation.addScreenshot(image(8));
    // Window 3: the oldest leave two at a time (profiles/image-window.ts).
    assert.deepEqual(urls(conversation), ['IMG7', 'IMG8']);
    const replies = messagesOf(conversation).filter((m) => m.role === 'assistant');
    assert.equal(replies.length, 7);
  });

  it('lets older screenshots leave in chunks of half the window, so the prefix holds for steps', () => {
    const conversation = conversationOf('P', 4);
    const sent: string[][] = [];
    for (let n = 1; n <= 8; n++) {
      conversation.addScreenshot(image(n));
      sent.push(urls(conversation));
      conversation.addReply(reply(`r${n}`));
    }
    assert.deepEqual(sent.slice(3), [
      ['IMG1', 'IMG2', 'IMG3', 'IMG4'],
      ['IMG3', 'IMG4', 'IMG5'],
      ['IMG3', 'IMG4', 'IMG5', 'IMG6'],
      ['IMG5', 'IMG6', 'IMG7'],
      ['IMG5', 'IMG6', 'IMG7', 'IMG8'],
    ]);
    assert.equal(conversation.imagesSent(), 4);
  });

  it('sends older screenshots at their lower-quality copy only from the next chunk drop on', async () => {
    const conversation = conversationOf('P', 4);
    const sent: string[][] = [];
    for (let n = 1; n <= 8; n++) {
      conversation.addScreenshot(withCopy(n, []));
      await conversation.prepare();
      sent.push(urls(conversation));
      conversation.addReply(reply(`r${n}`));
    }
    // Until a chunk leaves, every request extends the last one; at a drop (5 and 7 screenshots)
    // the screenshots already older than the newest switch to their copy, and stay switched.
    assert.deepEqual(sent.slice(3), [
      ['IMG1', 'IMG2', 'IMG3', 'IMG4'],
      ['LOW3', 'LOW4', 'IMG5'],
      ['LOW3', 'LOW4', 'IMG5', 'IMG6'],
      ['LOW5', 'LOW6', 'IMG7'],
      ['LOW5', 'LOW6', 'IMG7', 'IMG8'],
    ]);
  });

  it('encodes a copy only when a request is about to send it, one request ahead', async () => {
    const conversation = conversationOf('P', 4);
    const made: number[] = [];
    const madeAfter: number[][] = [];
    for (let n = 1; n <= 8; n++) {
      conversation.addScreenshot(withCopy(n, made));
      await conversation.prepare();
      urls(conversation);
      // What request() started for the next request finishes while the model would be working.
      await new Promise((resolve) => setImmediate(resolve));
      madeAfter.push([...made].sort());
      conversation.addReply(reply(`r${n}`));
    }
    // Window 4: the drops at 5 and 7 screenshots send 3–4 and 5–6 as copies, the one at 9 would
    // send 7–8. Each pair starts one request early; 1 and 2 leave the window without one.
    assert.deepEqual(madeAfter, [
      [],
      [],
      [],
      [3, 4],
      [3, 4],
      [3, 4, 5, 6],
      [3, 4, 5, 6],
      [3, 4, 5, 6, 7, 8],
    ]);
  });

  it('sends the same requests as copies made at once, for every profile', async () => {
    for (const profile of PROFILE_NAMES.map((name) => profileNamed(name))) {
      assert.ok(profile);
      const lazy = new Conversation({
        profile,
        instruction: 'P',
        actionSpace: 'browser',
        imageWindow: 5,
      });
      const eager = new Conversation({
        profile,
        instruction: 'P',
        actionSpace: 'browser',
        imageWindow: 5,
      });
      for (let n = 1; n <= 12; n++) {
        lazy.addScreenshot(withCopy(n, []));
        const made = withCopy(n, []);
        await made.older?.make();
        eager.addScreenshot(made);
        await lazy.prepare();
        assert.equal(
          JSON.stringify(lazy.request()),
          JSON.stringify(eager.request()),
          `${profile.name} step ${n}`,
        );
        const answer = profile.readReply({ text: 'Action: wait()', body: null }).turn;
        lazy.addReply(answer);
        eager.addReply(answer);
      }
    }
  });

  it('makes none for a task that ends inside its window', async () => {
    const made: number[] = [];
    const lazy = conversationOf('P', 4);
    for (let n = 1; n <= 4; n++) {
      lazy.addScreenshot(withCopy(n, made));
      await lazy.prepare();
      lazy.request();
      lazy.addReply(reply(`r${n}`));
    }
    // Step 4 starts the copies step 5 would send; a task that ends at step 3 makes none.
    assert.deepEqual(made, [3, 4]);
    const short = conversationOf('P', 4);
    const none: number[] = [];
    for (let n = 1; n <= 3; n++) {
      short.addScreenshot(withCopy(n, none));
      await short.prepare();
      short.request();
      short.addReply(reply(`r${n}`));
    }
    assert.deepEqual(none, []);
  });

  it('refuses to build a request whose copies were not made, rather than send the wrong image', async () => {
    const conversation = conversationOf('P', 2);
    for (let n = 1; n <= 2; n++) {
      conversation.addScreenshot({
        ...image(n),
        older: olderCopy(() => new Promise(() => {}), image(n)),
      });
      await conversation.prepare();
      conversation.request();
      conversation.addReply(reply(`r${n}`));
    }
    conversation.addScreenshot(image(3));
    assert.throws(() => conversation.request(), /call prepare\(\) first/);
  });

  it('lets go of a screenshot that left the window without its copy: a late make() sends the image itself', async () => {
    const conversation = conversationOf('P', 2);
    const made: number[] = [];
    const first = withCopy(1, made);
    for (const n of [1, 2, 3, 4, 5]) {
      conversation.addScreenshot(n === 1 ? first : withCopy(n, made));
      await conversation.prepare();
      conversation.request();
      conversation.addReply(reply(`r${n}`));
    }
    assert.equal(made.includes(1), false);
    assert.equal((await first.older?.make())?.base64, 'IMG1');
    assert.equal(made.includes(1), false, 'its encoder was dropped, never run');
  });

  it('switches screenshots to their older copy only where a chunk leaves, never the newest', () => {
    for (let window = 1; window <= 8; window++) {
      for (let shots = 1; shots <= 30; shots++) {
        const older = imagesAtOlderQuality(shots, window);
        const left = imagesLeftOut(shots, window);
        const at = `window ${window}, ${shots} screenshots`;
        assert.ok(older < shots, at);
        if (left === 0) assert.equal(older, 0, at);
        else if (left !== imagesLeftOut(shots - 1, window)) assert.equal(older, shots - 1, at);
        else assert.equal(older, imagesAtOlderQuality(shots - 1, window), at);
      }
    }
  });

  it('attaches notes to the next screenshot and keeps them after the image leaves the window', () => {
    const conversation = conversationOf('P', 1);
    conversation.addScreenshot(image(1));
    conversation.addReply(reply('bad'));
    conversation.addNote('your last reply could not be used');
    conversation.addScreenshot(image(2));
    conversation.addReply(reply('ok'));
    conversation.addScreenshot(image(3));
    const texts = messagesOf(conversation)
      .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .filter((part) => part.type === 'text');
    assert.equal(texts.length, 1);
    assert.deepEqual(urls(conversation), ['IMG3']);
  });
});
