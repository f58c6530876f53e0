/**
 * Manifest sections whose kinds adsctl cannot manage yet: schemas/manifest.schema.json describes
 * them (so editors complete them and the shape is fixed), and validate refuses each at its position rather than let apply fail on it.
 */

/** Top-level section → what it holds, in words. */
export const UNSUPPORTED_SECTIONS: Readonly<Record<string, string>> = {
  custom_audiences: 'custom audiences',
  cards: 'cards',
  media_library: 'media library items',
  draft_posts: 'draft posts',
};

/** Fields of supported kinds that name an unsupported kind, with what they name. */
export const UNSUPPORTED_REFERENCES: Readonly<Record<string, string>> = {
  custom_audience: 'custom audiences',
};
