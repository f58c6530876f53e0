/**
 * An image or video conversation card (Part B, Image and Video conversation cards): calls to
 * action as hashtags with their post texts, a title or a second call to action, a thank-you text,
 * and media of the manifest by logical name. Its `format` picks the endpoint and cannot change (a
 * replacement); every other field changes in place. The poster of a video card is write-only
 * (the service shows a URL instead), so it is compared with what was last applied. Updates and
 * deletes look the card up under the image path first to know which path holds it.
 */
import { ApiError } from '../api/errors.js';
import type { AdsApi } from '../api/ads-api.js';
import type { ConversationCard } from '../manifest/generated/manifest.js';
import { field, required } from './attribute.js';
import type { KindDescriptor, RuleProblem } from './descriptor.js';
import { manifestFields } from './manifest-fields.js';
import { pick } from './post.js';

const CTAS = ['first_cta', 'second_cta', 'third_cta', 'fourth_cta'] as const;
const SENT = ['name', 'media_key', ...CTAS.flatMap((c) => [c, `${c}_tweet`]), 'title', 'thank_you_text', 'thank_you_url', 'poster_media_key'] as const;

type Resource = 'image_conversation_card' | 'video_conversation_card';
const resourceOf = (format: unknown): Resource => (format === 'video' ? 'video_conversation_card' : 'image_conversation_card');

/** The path that holds card `id`: the image one, unless it answers 404. */
async function holderOf(api: AdsApi, accountId: string, id: string): Promise<Resource> {
  try {
    await api.get('image_conversation_card', accountId, id);
    return 'image_conversation_card';
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return 'video_conversation_card';
    throw error;
  }
}

/** The service's rules across the card's fields (Part B): each call to action with its post text, and a title or a second one. */
function rules(values: Readonly<Record<string, unknown>>): RuleProblem[] {
  const problems: RuleProblem[] = [];
  for (const cta of CTAS) {
    if (values[cta] !== undefined && values[cta] !== null && (values[`${cta}_tweet`] === undefined || values[`${cta}_tweet`] === null)) {
      problems.push({ field: cta, code: 'conversation-cta', message: `${cta} needs ${cta}_tweet, the post text its hashtag sends` });
    }
  }
  if ((values['title'] === undefined || values['title'] === null) && (values['second_cta'] === undefined || values['second_cta'] === null)) {
    problems.push({ field: 'first_cta', code: 'conversation-title', message: 'a conversation card needs a title or a second_cta' });
  }
  if (values['format'] !== 'video' && values['poster_media_key'] !== undefined && values['poster_media_key'] !== null) {
    problems.push({ field: 'poster_media_key', code: 'conversation-poster', message: 'poster_media only goes with format video' });
  }
  return problems;
}

/** A conversation card. */
export const CONVERSATION_CARD: KindDescriptor = {
  kind: 'conversation_card',
  noun: 'conversation card',
  parent: 'account',
  address: { collection: 'conversation_cards', key: 'name' },
  manifest: manifestFields<ConversationCard>('ConversationCard', {
    ids: ['media_key', 'poster_media_key'],
    plain: ['format', 'name', 'first_cta', 'first_cta_tweet', 'second_cta', 'second_cta_tweet', 'third_cta', 'third_cta_tweet', 'fourth_cta', 'fourth_cta_tweet', 'title', 'thank_you_text', 'thank_you_url'],
    refs: { media: { field: 'media_key', collection: 'media' }, poster_media: { field: 'poster_media_key', collection: 'media' } },
  }),
  // its format is the endpoint that holds it: write-only, so never compared, and written from the record
  generate: { leading: ['format'] },
  attributes: [
    { ...required('format', 'scalar', 'replace'), writeOnly: true },
    required('name', 'scalar', 'update'),
    required('media_key', 'id', 'update'),
    ...CTAS.flatMap((c) => [field(c, 'scalar', 'update'), { ...field(`${c}_tweet`, 'scalar', 'update'), multiline: true as const }]),
    field('title', 'scalar', 'update'),
    { ...required('thank_you_text', 'scalar', 'update') },
    field('thank_you_url', 'scalar', 'update'),
    { ...field('poster_media_key', 'id', 'update'), writeOnly: true },
  ],
  computed: ['id', 'card_type', 'card_uri', 'media_url', 'poster_media_url', 'unlocked_image_url', 'unlocked_video_media_key', 'created_at', 'updated_at', 'deleted'],
  read: {
    via: 'custom',
    read: async (api, accountId, { bound }) => {
      if (bound.size === 0) return [];
      const [images, videos] = await Promise.all([api.listWhere('image_conversation_card', accountId, 'card_ids', [...bound]), api.listWhere('video_conversation_card', accountId, 'card_ids', [...bound])]);
      return [...images.map((r) => ({ ...(r as Record<string, unknown>), format: 'image' })), ...videos.map((r) => ({ ...(r as Record<string, unknown>), format: 'video' }))];
    },
    whole: async (api, accountId) => {
      const [images, videos] = await Promise.all([api.list('image_conversation_card', accountId), api.list('video_conversation_card', accountId)]);
      return [...images.map((r) => ({ ...(r as Record<string, unknown>), format: 'image' })), ...videos.map((r) => ({ ...(r as Record<string, unknown>), format: 'video' }))];
    },
  },
  write: {
    create: { via: 'single', send: async (api, accountId, item) => String((await api.create(resourceOf(item.params['format']), accountId, pick(item.params, SENT) as never)).id) },
    update: {
      via: 'single',
      send: async (api, accountId, item) => {
        const id = item.id ?? '';
        await api.update(await holderOf(api, accountId, id), accountId, id, Object.fromEntries(SENT.filter((f) => Object.hasOwn(item.params, f)).map((f) => [f, item.params[f] ?? ''])) as never);
        return id;
      },
    },
    delete: {
      via: 'single',
      send: async (api, accountId, item) => {
        const id = item.id ?? '';
        await api.delete(await holderOf(api, accountId, id), accountId, id);
        return id;
      },
    },
  },
  import: { via: 'read' },
  replaceOrder: 'create-first',
  sandboxOnly: false,
  retiredWithParent: false,
  owned: false,
  limits: [],
  lookups: [],
  rules,
};
