/**
 * A card (Part B, Cards): a name and either `components` or `slides` (a multi-destination
 * carousel), sent as JSON. PUT replaces each field it is given, so every field changes in place.
 * Components name media of the manifest by logical name (their `media_key`s are known once the
 * media is uploaded). The live record is read back in the shape the manifest writes: the
 * components' input fields only (the service adds `media_metadata`).
 */
import type { Card } from '../manifest/generated/manifest.js';
import { field } from './attribute.js';
import type { KindDescriptor } from './descriptor.js';
import { readCardContent, writeCardContent } from './card-content.js';
import { manifestFields } from './manifest-fields.js';
import { deleteOne } from './standard.js';

const COMPONENT_FIELDS = ['type', 'media_key', 'media_keys', 'title', 'label', 'destination'] as const;

function inputShape(component: unknown): unknown {
  if (component === null || typeof component !== 'object' || Array.isArray(component)) return component;
  const c = component as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const f of COMPONENT_FIELDS) if (c[f] !== undefined && c[f] !== null) out[f] = c[f];
  return out;
}

/** A live card in the shape the manifest writes. */
function cardAsWritten(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...record };
  if (Array.isArray(record['components'])) out['components'] = record['components'].map(inputShape);
  if (Array.isArray(record['slides'])) out['slides'] = record['slides'].map((s) => (Array.isArray(s) ? s.map(inputShape) : s));
  return out;
}

function cardBody(params: Readonly<Record<string, unknown>>): { name?: string; components?: unknown[]; slides?: unknown[][] } {
  return {
    ...(typeof params['name'] === 'string' ? { name: params['name'] } : {}),
    ...(Array.isArray(params['components']) ? { components: params['components'] } : {}),
    ...(Array.isArray(params['slides']) ? { slides: params['slides'] as unknown[][] } : {}),
  };
}

/** A card. */
export const CARD: KindDescriptor = {
  kind: 'card',
  noun: 'card',
  parent: 'account',
  address: { collection: 'cards', key: 'name' },
  manifest: manifestFields<Card>('Card', { plain: ['name'], special: ['components', 'slides'], named: ['media'], read: readCardContent }),
  generate: { own: { fields: ['components', 'slides'], write: writeCardContent } },
  attributes: [{ ...field('name', 'scalar', 'update'), requiredOnCreate: true }, field('components', 'json', 'update'), field('slides', 'json', 'update')],
  computed: ['id', 'card_uri', 'card_type', 'created_at', 'updated_at', 'deleted'],
  read: {
    via: 'custom',
    read: async (api, accountId, { bound }) => (bound.size === 0 ? [] : (await api.listWhere('card', accountId, 'card_id', [...bound])).map((r) => cardAsWritten(r as unknown as Record<string, unknown>))),
    whole: async (api, accountId) => (await api.list('card', accountId)).map((r) => cardAsWritten(r as unknown as Record<string, unknown>)),
  },
  write: {
    create: { via: 'single', send: async (api, accountId, item) => String((await api.createCard(accountId, { name: String(item.params['name']), ...cardBody(item.params) })).id) },
    update: {
      via: 'single',
      send: async (api, accountId, item) => {
        await api.updateCard(accountId, item.id ?? '', cardBody(item.params));
        return item.id ?? '';
      },
    },
    delete: deleteOne('card'),
  },
  find: { resource: 'card', identity: ['name'] },
  import: { via: 'read' },
  replaceOrder: 'create-first',
  sandboxOnly: false,
  retiredWithParent: false,
  owned: false,
  limits: [],
  lookups: [],
};
