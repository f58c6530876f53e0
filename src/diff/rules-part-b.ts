/**
 * Attribute rules of the Part B kinds, from the spec's parameter lists (Part B, Endpoints):
 * - custom audience: PUT changes name and description (its users are diffed by content hash
 *   elsewhere, so the users file is not an attribute here);
 * - card: PUT replaces name, components or slides, whose order matters;
 * - media library item: `media_key` is the object's key; the other fields are updatable;
 * - draft post: PUT changes everything but `as_user_id`; `nullcast` defaults to true; a card
 *   reference becomes the card's `card://<id>` URI.
 */
import { defaulted, field, type KindRules } from './field-rule.js';

/** A custom audience. */
export const CUSTOM_AUDIENCE_RULES: KindRules = {
  kind: 'custom_audience',
  fields: [field('name', 'scalar', 'update'), field('description', 'scalar', 'update')],
};

/** A card. */
export const CARD_RULES: KindRules = {
  kind: 'card',
  fields: [field('name', 'scalar', 'update'), field('components', 'json', 'update'), field('slides', 'json', 'update')],
};

/** A media library item. */
export const MEDIA_LIBRARY_ITEM_RULES: KindRules = {
  kind: 'media_library_item',
  fields: [
    field('media_key', 'id', 'replace'),
    field('name', 'scalar', 'update'),
    field('file_name', 'scalar', 'update'),
    field('title', 'scalar', 'update'),
    field('description', 'scalar', 'update'),
    field('poster_media_key', 'id', 'update'),
  ],
};

/** A draft post. */
export const DRAFT_POST_RULES: KindRules = {
  kind: 'draft_post',
  fields: [
    field('as_user_id', 'id', 'replace'),
    field('text', 'scalar', 'update'),
    { ...field('card_uri', 'scalar', 'update'), fromId: (id) => `card://${id}` },
    field('media_keys', 'list', 'update'),
    defaulted('nullcast', 'scalar', true),
    field('name', 'scalar', 'update'),
  ],
  aliases: { card: 'card_uri' },
};
