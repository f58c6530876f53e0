import { describe, expect, it } from 'vitest';
import { sign } from '../support/signer.js';

describe('test-side signer', () => {
  it('reproduces the published worked example', () => {
    const oauth = {
      oauth_consumer_key: 'xvz1evFS4wEEPTGEFPHBog',
      oauth_nonce: 'kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg',
      oauth_signature_method: 'HMAC-SHA1',
      oauth_timestamp: '1318622958',
      oauth_token: '370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb',
      oauth_version: '1.0',
    };
    const signature = sign(
      {
        consumerKey: 'xvz1evFS4wEEPTGEFPHBog',
        consumerSecret: 'kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw',
        token: oauth.oauth_token,
        tokenSecret: 'LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE',
      },
      {
        method: 'POST',
        url: 'https://api.twitter.com/1.1/statuses/update.json?include_entities=true',
        form: [['status', 'Hello Ladies + Gentlemen, a signed OAuth request!']],
      },
      oauth,
    );
    expect(signature).toBe('hCtSmYh+iHYCEqBWrE7C7hYmtUk=');
  });
});
