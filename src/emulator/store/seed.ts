/**
 * The data a fresh emulator starts with, so that it is useful out of the box: an application and
 * its owner's access token, a sandbox account with a USD funding instrument, the owner as the
 * account's FULL promotable user with published posts, further users with other permissions (their
 * tokens come from the three-legged flow), users that can be promoted, account media and apps.
 * Everything is deterministic, so a seeded emulator prints the same credentials every time.
 */
import { formatTime } from '../clock.js';
import { snowflakeId } from '../ids.js';
import type { Store } from './store.js';

/** The seeded identities a client needs, printed on the start-up line. */
export interface SeedInfo {
  consumer_key: string;
  consumer_secret: string;
  access_token: string;
  access_token_secret: string;
  user_id: string;
  account_id: string;
  funding_instrument_id: string;
}

export const SEED: SeedInfo = {
  consumer_key: 'xvz1evFS4wEEPTGEFPHBogEmu',
  consumer_secret: 'kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBwEmu',
  access_token: '756201191646691328-adsctlEmulatorOwnerAccessToken',
  access_token_secret: 'LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kEmu',
  user_id: '756201191646691328',
  account_id: '18ce54d4x5t',
  funding_instrument_id: 'lygyi',
};

/** Seeded users: screen name, id, permissions on the seeded account (none: not associated). */
const SEED_USERS: ReadonlyArray<{ id: string; screen_name: string; name: string; permissions?: string[]; eligible?: boolean }> = [
  { id: SEED.user_id, screen_name: 'adsctl_owner', name: 'Acme Outdoor', permissions: ['ACCOUNT_ADMIN', 'TWEET_COMPOSER'] },
  { id: '756201191646691329', screen_name: 'adsctl_manager', name: 'Ad Manager', permissions: ['AD_MANAGER'] },
  { id: '756201191646691330', screen_name: 'adsctl_creative', name: 'Creative Manager', permissions: ['CREATIVE_MANAGER'] },
  { id: '756201191646691331', screen_name: 'adsctl_analyst', name: 'Campaign Analyst', permissions: ['CAMPAIGN_ANALYST'] },
  { id: '756201191646691332', screen_name: 'adsctl_outsider', name: 'Outsider' },
  { id: '2244994945', screen_name: 'acme_gear', name: 'Acme Gear' },
  { id: '783214', screen_name: 'acme_trails', name: 'Acme Trails' },
  { id: '6253282', screen_name: 'acme_news', name: 'Acme News' },
  { id: '17874544', screen_name: 'acme_support', name: 'Acme Support' },
  { id: '1000000000000000001', screen_name: 'suspended_user', name: 'Suspended', eligible: false },
];

/**
 * Public users with no tie to the seeded account (ids `3000000000000000001` on, screen names
 * `public_user_001` on): enough known users to reach the per-line-item limits of user targeting
 * (100 SIMILAR_TO_FOLLOWERS_OF_USER criteria).
 */
export const SEED_PUBLIC_USERS: ReadonlyArray<{ id: string; screen_name: string; name: string }> = Array.from({ length: 110 }, (_, i) => {
  const n = String(i + 1).padStart(3, '0');
  return { id: `3000000000000000${n}`, screen_name: `public_user_${n}`, name: `Public User ${n}` };
});

/** Ids of the published posts seeded for the owner; the first is the one in the manifest examples. */
export const SEED_POST_IDS: readonly string[] = Array.from({ length: 200 }, (_, i) => snowflakeId(i));

/**
 * Published posts by other users: by the account's RETWEETS_ONLY promotable user (acme_gear),
 * whose promotion creates a promoted-only repost, and by a user the account may not promote
 * (acme_news).
 */
export const SEED_OTHER_POSTS: ReadonlyArray<{ id: string; user_id: string }> = [
  { id: '1900000000000000001', user_id: '2244994945' },
  { id: '1900000000000000002', user_id: '2244994945' },
  { id: '1900000000000000003', user_id: '6253282' },
];

/** A second application, without the sign-in setting (`/oauth/authenticate` refuses it). */
export const SEED_APP_WITHOUT_SIGN_IN = { consumer_key: 'adsctlEmulatorNoSignInApp', consumer_secret: 'adsctlEmulatorNoSignInAppSecret' };

const CREATED = formatTime(new Date(Date.UTC(2026, 0, 1)));

/** Fills an empty store with the seed data. */
export function seedStore(store: Store): void {
  store.transaction(() => {
    store.insert('app', SEED.consumer_key, '', { consumer_key: SEED.consumer_key, name: 'adsctl emulator app', callback_urls: ['http://127.0.0.1/callback', 'http://localhost/callback'] }, {
      consumer_secret: SEED.consumer_secret,
      owner_user_id: SEED.user_id,
      sign_in_enabled: true,
    });
    store.insert('app', SEED_APP_WITHOUT_SIGN_IN.consumer_key, '', { consumer_key: SEED_APP_WITHOUT_SIGN_IN.consumer_key, name: 'adsctl emulator app without sign-in', callback_urls: ['http://127.0.0.1/callback'] }, {
      consumer_secret: SEED_APP_WITHOUT_SIGN_IN.consumer_secret,
      owner_user_id: SEED.user_id,
      sign_in_enabled: false,
    });
    for (const u of SEED_USERS) {
      store.insert('user', u.id, '', { id: u.id, id_str: u.id, screen_name: u.screen_name, name: u.name }, { eligible: u.eligible !== false });
    }
    for (const u of SEED_PUBLIC_USERS) store.insert('user', u.id, '', { id: u.id, id_str: u.id, screen_name: u.screen_name, name: u.name }, { eligible: true });
    store.insert('access_token', SEED.access_token, '', { token: SEED.access_token }, {
      secret: SEED.access_token_secret,
      consumer_key: SEED.consumer_key,
      user_id: SEED.user_id,
      access_level: 'read-write',
      revoked: false,
    });
    const users: Record<string, string[]> = {};
    for (const u of SEED_USERS) if (u.permissions !== undefined) users[u.id] = u.permissions;
    store.insert(
      'account',
      SEED.account_id,
      SEED.account_id,
      {
        id: SEED.account_id,
        name: 'adsctl sandbox',
        business_name: null,
        business_id: null,
        timezone: 'America/Los_Angeles',
        timezone_switch_at: CREATED,
        industry_type: null,
        approval_status: 'ACCEPTED',
        created_at: CREATED,
        updated_at: CREATED,
        deleted: false,
      },
      { users, features: ['AGE_TARGETING', 'CONVERSATION_CARD', 'CITY_TARGETING'], sandbox: true },
    );
    store.insert('funding_instrument', SEED.funding_instrument_id, SEED.account_id, {
      id: SEED.funding_instrument_id,
      account_id: SEED.account_id,
      type: 'CREDIT_CARD',
      description: 'Visa ending in 1234',
      currency: 'USD',
      start_time: CREATED,
      end_time: null,
      credit_limit_local_micro: null,
      funded_amount_local_micro: null,
      credit_remaining_local_micro: null,
      entity_status: 'ACTIVE',
      able_to_fund: true,
      reasons_not_able_to_fund: [],
      io_header: null,
      created_at: CREATED,
      updated_at: CREATED,
      deleted: false,
    });
    const pu = store.newId();
    store.insert('promotable_user', pu, SEED.account_id, {
      id: pu,
      user_id: SEED.user_id,
      promotable_user_type: 'FULL',
      created_at: CREATED,
      updated_at: CREATED,
      deleted: false,
    });
    const pu2 = store.newId();
    store.insert('promotable_user', pu2, SEED.account_id, {
      id: pu2,
      user_id: '2244994945',
      promotable_user_type: 'RETWEETS_ONLY',
      created_at: CREATED,
      updated_at: CREATED,
      deleted: false,
    });
    SEED_POST_IDS.forEach((id, i) => {
      store.insert('post', id, '', { id, id_str: id, text: `Seeded post ${i + 1} from Acme Outdoor`, tweet_type: 'PUBLISHED', nullcast: false, created_at: CREATED }, { user_id: SEED.user_id });
    });
    for (const post of SEED_OTHER_POSTS) {
      store.insert('post', post.id, '', { id: post.id, id_str: post.id, text: `A post by user ${post.user_id}`, tweet_type: 'PUBLISHED', nullcast: false, created_at: CREATED }, { user_id: post.user_id });
    }
    const media: Array<[string, string]> = [
      ['PREROLL', '13_1323490622599176192'],
      ['INTERSTITIAL', '3_1323490622599176193'],
      ['INTERSTITIAL_LANDSCAPE_TABLET', '3_1323490622599176194'],
      ['BANNER', '3_1323490622599176195'],
      ['MEDIUM_RECTANGLE', '3_1323490622599176196'],
    ];
    for (const [creativeType, mediaKey] of media) {
      const id = store.newId();
      store.insert('account_media', id, SEED.account_id, {
        id,
        media_key: mediaKey,
        creative_type: creativeType,
        media_url: `https://media.example.invalid/${mediaKey}.${creativeType === 'PREROLL' ? 'mp4' : 'jpg'}`,
        created_at: CREATED,
        updated_at: CREATED,
        deleted: false,
      });
    }
    for (const [os, store_id] of [
      ['Android', 'com.acme.outdoor'],
      ['iOS', '333903271'],
    ] as const) {
      const id = store.newId();
      store.insert('account_app', id, SEED.account_id, {
        id,
        app_store_identifier: store_id,
        conversion_tracking_enabled: true,
        deep_link_pattern: 'acme://',
        os_type: os,
        created_at: CREATED,
        updated_at: CREATED,
        deleted: false,
      });
    }
  });
}
