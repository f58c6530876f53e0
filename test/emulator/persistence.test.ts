import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/emulator.js';
import { TestClient } from '../support/client.js';
import { spawnEmulator } from '../support/cli.js';
import { mp4, png } from '../support/media-bytes.js';
import { libraryMedia } from '../support/media-library.js';
import { sendUpload } from '../support/upload.js';
import { testClock } from '../support/test-clock.js';

const dir = mkdtempSync(join(tmpdir(), 'adsctl-emu-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const campaign = (name: string) => ({ funding_instrument_id: 'lygyi', name, daily_budget_amount_local_micro: 5_000_000, entity_status: 'PAUSED' });

async function campaignNames(client: TestClient, account: string): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | null = null;
  do {
    const r = await client.get(`/12/accounts/${account}/campaigns`, { count: 1000, ...(cursor === null ? {} : { cursor }) });
    expect(r.status).toBe(200);
    for (const c of r.body.data as Array<{ name: string }>) names.push(c.name);
    cursor = r.body.next_cursor as string | null;
  } while (cursor !== null);
  return names;
}

describe('--data persistence', () => {
  it('keeps state across a clean restart, and ids stay unique', async () => {
    const file = join(dir, 'clean.json');
    const first = await startEmulator({ clock: testClock, port: 0, dataFile: file, log: () => {} });
    const c1 = new TestClient(first.info);
    const created = await c1.post(`/12/accounts/${first.info.account_id}/campaigns`, campaign('kept'));
    expect(created.status).toBe(201);
    await c1.put(`/12/accounts/${first.info.account_id}`, { name: 'Renamed account' });
    await first.close();

    const second = await startEmulator({ clock: testClock, port: 0, dataFile: file, log: () => {} });
    const c2 = new TestClient(second.info);
    const account = await c2.get(`/12/accounts/${second.info.account_id}`);
    expect(account.body.data.name).toBe('Renamed account');
    const again = await c2.get(`/12/accounts/${second.info.account_id}/campaigns/${created.body.data.id}`);
    expect(again.status).toBe(200);
    const next = await c2.post(`/12/accounts/${second.info.account_id}/campaigns`, campaign('new'));
    expect(next.body.data.id).not.toBe(created.body.data.id);
    await second.close();
  });

  it('keeps uploads, media library items and cards, and a video goes on processing after a restart', async () => {
    const file = join(dir, 'creatives.json');
    const first = await startEmulator({ clock: testClock, port: 0, dataFile: file, log: () => {} });
    const c1 = new TestClient(first.info);
    const account = first.info.account_id;
    const image = await libraryMedia(c1, account, png(1200, 628), 'image/png', { name: 'Kept image' });
    const card = await c1.post(`/12/accounts/${account}/cards`, {}, { json: { name: 'Kept card', components: [{ type: 'MEDIA', media_key: image }, { type: 'DETAILS', title: 't', destination: { type: 'WEBSITE', url: 'https://example.com' } }] } });
    expect(card.status, card.text).toBe(201);
    const video = mp4(1280, 720);
    const init = await sendUpload(c1, 'POST', { form: { command: 'INIT', total_bytes: video.length, media_type: 'video/mp4', media_category: 'tweet_video' } });
    const mediaId = init.body.media_id_string as string;
    await sendUpload(c1, 'POST', { multipart: [{ name: 'command', value: 'APPEND' }, { name: 'media_id', value: mediaId }, { name: 'segment_index', value: '0' }, { name: 'media', value: video, filename: 'v' }] });
    expect((await sendUpload(c1, 'POST', { form: { command: 'FINALIZE', media_id: mediaId } })).body.processing_info.state).toBe('pending');
    await first.close();

    const second = await startEmulator({ clock: testClock, port: 0, dataFile: file, log: () => {} });
    const c2 = new TestClient(second.info);
    expect((await c2.get(`/12/accounts/${account}/media_library/${image}`)).body.data).toMatchObject({ name: 'Kept image', aspect_ratio: '1.91:1' });
    expect((await c2.get(`/12/accounts/${account}/cards/${card.body.data.id}`)).body.data).toEqual(card.body.data);
    const status = await sendUpload(c2, 'GET', { query: { command: 'STATUS', media_id: mediaId } });
    expect(status.body.processing_info.state).toBe('in_progress');
    await second.close();
  });

  it('refuses a second process on the same data file, and takes over the lock of a killed one', async () => {
    const file = join(dir, 'shared.json');
    const first = await spawnEmulator(['--data', file]);
    await expect(spawnEmulator(['--data', file])).rejects.toThrow(/exited with 1[\s\S]*in use by another emulator or adsctl run \(pid \d+\)/);
    first.child.kill('SIGKILL');
    await first.exited;
    const next = await spawnEmulator(['--data', file]);
    next.child.kill('SIGTERM');
    expect(await next.exited, next.stderr()).toBe(0);
  });

  it('loses no acknowledged write when the process is killed with SIGKILL', async () => {
    const file = join(dir, 'killed.json');
    const emu = await spawnEmulator(['--data', file, '--rate-limit-scale', '0']);
    const client = new TestClient(emu.info);
    const account = emu.info.account_id;
    const acknowledged: string[] = [];
    let stop = false;
    const writers = Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; !stop; i++) {
        const name = `w${w}-${i}`;
        try {
          const r = await client.post(`/12/accounts/${account}/campaigns`, campaign(name));
          if (r.status === 201) acknowledged.push(name);
        } catch {
          return; // the connection died with the process
        }
      }
    });
    while (acknowledged.length < 60) await new Promise((r) => setTimeout(r, 5));
    emu.child.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);
    expect(await emu.exited).toBe('SIGKILL');

    const revived = await spawnEmulator(['--data', file, '--rate-limit-scale', '0']);
    const names = new Set(await campaignNames(new TestClient(revived.info), account));
    for (const name of acknowledged) expect(names.has(name)).toBe(true);
    revived.child.kill('SIGTERM');
    expect(await revived.exited).toBe(0);
  });
});
