/**
 * Posts, drafts and scheduled posts are kept with `--data`: after a restart they are listed and
 * looked up as before, and new ids do not collide with them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatTime } from '../../src/emulator/clock.js';
import { startEmulator } from '../../src/emulator/emulator.js';
import { TestClient } from '../support/client.js';
import { testNow } from '../support/test-clock.js';
import { testClock } from '../support/test-clock.js';

const dir = mkdtempSync(join(tmpdir(), 'adsctl-posts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--data persistence of posts', () => {
  it('keeps published, draft and scheduled posts across a restart', async () => {
    const file = join(dir, 'posts.json');
    const first = await startEmulator({ clock: testClock, port: 0, dataFile: file, log: () => {} });
    const c1 = new TestClient(first.info);
    const a = `/12/accounts/${first.info.account_id}`;
    const user = first.info.user_id;
    const post = await c1.post(`${a}/tweet`, { as_user_id: user, text: 'Kept post', name: 'Kept' }, { as: 'form' });
    const draft = await c1.post(`${a}/draft_tweets`, { as_user_id: user, text: 'Kept draft' }, { as: 'form' });
    const at = formatTime(new Date(testNow() + 86_400_000));
    const scheduled = await c1.post(`${a}/scheduled_tweets`, { as_user_id: user, text: 'Kept schedule', scheduled_at: at }, { as: 'form' });
    expect([post.status, draft.status, scheduled.status]).toEqual([201, 201, 201]);
    await first.close();

    const second = await startEmulator({ clock: testClock, port: 0, dataFile: file, log: () => {} });
    const c2 = new TestClient(second.info);
    const posts = await c2.get(`${a}/tweets`, { tweet_type: 'PUBLISHED', tweet_ids: post.body.data.id });
    expect(posts.body.data[0]).toMatchObject({ id: post.body.data.id, name: 'Kept', full_text: 'Kept post', nullcast: true });
    expect((await c2.get(`${a}/draft_tweets/${draft.body.data.id}`)).body.data).toEqual(draft.body.data);
    expect((await c2.get(`${a}/scheduled_tweets/${scheduled.body.data.id}`)).body.data).toEqual(scheduled.body.data);
    const next = await c2.post(`${a}/draft_tweets`, { as_user_id: user, text: 'New draft' }, { as: 'form' });
    expect([post.body.data.id, draft.body.data.id, scheduled.body.data.id]).not.toContain(next.body.data.id);
    await second.close();
  });
});
