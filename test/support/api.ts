/** Builds the real API client (src/api) against an emulator, for tests of the client and the CLI. */
import { AdsApi } from '../../src/api/ads-api.js';
import { ApiClient, type ClientOptions } from '../../src/api/client.js';
import { emulatorEndpoint } from '../../src/api/endpoints.js';
import type { StartupInfo } from '../../src/emulator/emulator.js';
import { testNow } from './test-clock.js';

export function apiFor(info: StartupInfo, options: Partial<ClientOptions> = {}): { client: ApiClient; api: AdsApi } {
  const client = new ApiClient({
    endpoint: emulatorEndpoint('test', info.base_url),
    credentials: { consumerKey: info.consumer_key, consumerSecret: info.consumer_secret, token: info.access_token, tokenSecret: info.access_token_secret },
    now: testNow,
    ...options,
  });
  return { client, api: new AdsApi(client) };
}
