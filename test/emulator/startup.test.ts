import { describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { spawnEmulator } from '../support/cli.js';

describe('adsctl emulator start-up contract', () => {
  it('prints the start-up JSON first, logs to stderr, serves, and stops cleanly on SIGTERM and SIGINT', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const emu = await spawnEmulator();
      expect(Object.keys(emu.info).sort()).toEqual(
        [
          'access_token',
          'access_token_secret',
          'account_id',
          'ads_base_url',
          'ads_sandbox_base_url',
          'base_url',
          'consumer_key',
          'consumer_secret',
          'funding_instrument_id',
          'upload_base_url',
          'user_id',
        ].sort(),
      );
      expect(emu.info.ads_base_url.startsWith(emu.info.base_url)).toBe(true);
      expect(emu.info.upload_base_url).toBe(`${emu.info.base_url}/upload`);
      const client = new TestClient(emu.info);
      const r = await client.get(`/12/accounts/${emu.info.account_id}`);
      expect(r.status).toBe(200);
      expect(r.body.data.id).toBe(emu.info.account_id);
      expect(emu.stderr()).toContain('listening');
      emu.child.kill(signal);
      expect(await emu.exited).toBe(0);
    }
  });

  it.each([
    ['--faults', 'explode=5%'],
    ['--port', 'abc'],
    ['--latency', '-3'],
  ])('refuses bad option %s %s with exit 1', async (flag, value) => {
    await expect(spawnEmulator([flag, value])).rejects.toThrow(/exited with 1/);
  });
});
