/**
 * Card components (Part B, Card components) as POST and PUT cards take them, and the card type
 * the service derives from them. A card's `components` are one media component (MEDIA: one image
 * or video; SWIPEABLE_MEDIA: 2 to 6) and one DETAILS (WEBSITE destination) or BUTTON (APP
 * destination); `slides` are 2 to 6 such pairs of MEDIA and DETAILS, for multi-destination
 * carousels. Every media key must be an image or video in the account's media library. Shape
 * problems are reported together (400); media problems after them (MEDIA_NOT_FOUND 404,
 * INVALID_MEDIA 400); a combination that makes no card type is 400 UNKNOWN_CARD_TYPE.
 */
import type { ApiContext } from '../context.js';
import { WireError, badRequest, combine, invalidParameter, missingParameter } from '../errors.js';
import type { Rec } from '../store/row.js';
import { invalidMedia, libraryMedia } from './media-library-item.js';

/** The card types of cards made from components (Part B enumerations). */
export const CARD_TYPES = [
  'IMAGE_APP', 'IMAGE_CAROUSEL_APP', 'IMAGE_CAROUSEL_WEBSITE', 'IMAGE_MULTI_DEST_CAROUSEL_WEBSITE', 'IMAGE_WEBSITE',
  'MIXED_MEDIA_MULTI_DEST_CAROUSEL_WEBSITE', 'MIXED_MEDIA_SINGLE_DEST_CAROUSEL_APP', 'MIXED_MEDIA_SINGLE_DEST_CAROUSEL_WEBSITE',
  'VIDEO_APP', 'VIDEO_CAROUSEL_APP', 'VIDEO_CAROUSEL_WEBSITE', 'VIDEO_MULTI_DEST_CAROUSEL_WEBSITE', 'VIDEO_WEBSITE',
] as const;

/** BUTTON label values. */
const BUTTON_LABELS = ['BOOK', 'CONNECT', 'INSTALL', 'OPEN', 'ORDER', 'PLAY', 'SHOP'] as const;

const KEYS: Record<string, readonly string[]> = {
  MEDIA: ['type', 'media_key'],
  SWIPEABLE_MEDIA: ['type', 'media_keys'],
  DETAILS: ['type', 'title', 'destination'],
  BUTTON: ['type', 'label', 'destination'],
  WEBSITE: ['type', 'url'],
  APP: ['type', 'country_code', 'googleplay_app_id', 'ios_app_store_identifier', 'googleplay_deep_link', 'ios_deep_link'],
  label: ['type', 'value'],
};

const isObject = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === 'string' && v !== '';

/** Collects the problems of one request's components. */
class Checker {
  readonly errors: WireError[] = [];

  object(v: unknown, name: string, at: string, keys: readonly string[]): v is Rec {
    if (v === undefined || v === null) this.errors.push(missingParameter(name));
    else if (!isObject(v)) this.errors.push(invalidParameter(name, `Expected an object, got ${JSON.stringify(v)} for ${at}`));
    else {
      for (const key of Object.keys(v)) if (!keys.includes(key)) this.errors.push(invalidParameter(key, `setting ${key} is not allowed in ${at}`));
      return true;
    }
    return false;
  }

  text(obj: Rec, name: string, at: string, required: boolean): void {
    const v = obj[name];
    if (v === undefined || v === null || v === '') {
      if (required) this.errors.push(new WireError(400, [{ code: 'MISSING_PARAMETER', message: `"${name}" is a required parameter in ${at}`, parameter: name }]));
    } else if (typeof v !== 'string') this.errors.push(invalidParameter(name, `Expected String, got ${JSON.stringify(v)} for ${at}.${name}`));
  }

  constant(obj: Rec, name: string, at: string, value: string): void {
    if (obj[name] === undefined) this.errors.push(missingParameter(name));
    else if (obj[name] !== value) this.errors.push(invalidParameter(name, `Expected ${value}, got ${JSON.stringify(obj[name])} for ${at}.${name}`));
  }
}

function checkWebsite(c: Checker, d: unknown, at: string): void {
  if (!c.object(d, 'destination', at, KEYS['WEBSITE']!)) return;
  c.constant(d, 'type', at, 'WEBSITE');
  c.text(d, 'url', at, true);
  if (isText(d['url']) && !/^https?:\/\/[^\s/]+\S*$/i.test(d['url'])) c.errors.push(invalidParameter('url', `Expected an http or https URL, got ${JSON.stringify(d['url'])} for ${at}.url`));
}

function checkApp(c: Checker, d: unknown, at: string): void {
  if (!c.object(d, 'destination', at, KEYS['APP']!)) return;
  c.constant(d, 'type', at, 'APP');
  c.text(d, 'country_code', at, true);
  if (isText(d['country_code']) && !/^[A-Z]{2}$/.test(d['country_code'])) c.errors.push(invalidParameter('country_code', `Expected an ISO 3166-1 alpha-2 code, got ${JSON.stringify(d['country_code'])} for ${at}.country_code`));
  for (const f of ['googleplay_app_id', 'ios_app_store_identifier', 'googleplay_deep_link', 'ios_deep_link']) c.text(d, f, at, false);
  if (!isText(d['googleplay_app_id']) && !isText(d['ios_app_store_identifier'])) {
    c.errors.push(badRequest('MISSING_PARAMETER', `One of googleplay_app_id and ios_app_store_identifier is required in ${at}`, 'googleplay_app_id'));
  }
  for (const [link, app] of [['googleplay_deep_link', 'googleplay_app_id'], ['ios_deep_link', 'ios_app_store_identifier']] as const) {
    if (isText(d[link]) && !isText(d[app])) c.errors.push(badRequest('INCLUSIVE_PARAMETERS', `${link} is only allowed with ${app} in ${at}`, link));
  }
}

function checkComponent(c: Checker, comp: unknown, at: string): void {
  const type = isObject(comp) ? comp['type'] : undefined;
  if (typeof type !== 'string' || KEYS[type] === undefined || type === 'WEBSITE' || type === 'APP' || type === 'label') {
    c.errors.push(invalidParameter('type', `Expected a value in MEDIA, SWIPEABLE_MEDIA, DETAILS, BUTTON, got ${JSON.stringify(type)} for ${at}.type`));
    return;
  }
  if (!c.object(comp, 'components', at, KEYS[type]!)) return;
  if (type === 'MEDIA') c.text(comp, 'media_key', at, true);
  else if (type === 'SWIPEABLE_MEDIA') {
    const keys = comp['media_keys'];
    if (keys === undefined) c.errors.push(missingParameter('media_keys'));
    else if (!Array.isArray(keys) || !keys.every(isText)) c.errors.push(invalidParameter('media_keys', `Expected an array of media keys for ${at}.media_keys`));
    else if (keys.length < 2 || keys.length > 6) c.errors.push(invalidParameter('media_keys', `${at}.media_keys takes 2 to 6 media keys, got ${keys.length}`));
  } else if (type === 'DETAILS') {
    c.text(comp, 'title', at, true);
    checkWebsite(c, comp['destination'], `${at}.destination`);
  } else {
    const label = comp['label'];
    if (c.object(label, 'label', `${at}.label`, KEYS['label']!)) {
      c.constant(label, 'type', `${at}.label`, 'ENUM');
      if (label['value'] === undefined) c.errors.push(missingParameter('value'));
      else if (!(BUTTON_LABELS as readonly unknown[]).includes(label['value'])) {
        c.errors.push(invalidParameter('value', `Expected a value in ${BUTTON_LABELS.join(', ')}, got ${JSON.stringify(label['value'])} for ${at}.label.value`));
      }
    }
    checkApp(c, comp['destination'], `${at}.destination`);
  }
}

function componentList(c: Checker, list: unknown, name: string): Rec[] {
  if (!Array.isArray(list) || list.length === 0) {
    c.errors.push(invalidParameter(name.replace(/\[.*$/, ''), `Expected a non-empty array of components for ${name}`));
    return [];
  }
  list.forEach((comp, i) => checkComponent(c, comp, `${name}[${i}]`));
  return list as Rec[];
}

/** Which media and which destination a list of (checked) components has, or undefined when it makes no card. */
function shape(components: readonly Rec[]): { media: string[]; swipeable: boolean; destination: 'WEBSITE' | 'APP' } | undefined {
  if (components.length !== 2) return undefined;
  const media = components.find((x) => x['type'] === 'MEDIA' || x['type'] === 'SWIPEABLE_MEDIA');
  const dest = components.find((x) => x['type'] === 'DETAILS' || x['type'] === 'BUTTON');
  if (media === undefined || dest === undefined) return undefined;
  const swipeable = media['type'] === 'SWIPEABLE_MEDIA';
  return { media: swipeable ? (media['media_keys'] as string[]) : [String(media['media_key'])], swipeable, destination: dest['type'] === 'DETAILS' ? 'WEBSITE' : 'APP' };
}

const mediaWord = (types: ReadonlySet<string>): string => (types.size > 1 ? 'MIXED_MEDIA' : [...types][0]!);

/**
 * Checks `components` or `slides` and returns the derived card type; throws the service's errors
 * otherwise, after `prior` (the problems of the body's other fields). When both or neither are
 * given, `prior` already says so.
 */
export function cardTypeOf(ctx: ApiContext, components: unknown, slides: unknown, prior: readonly WireError[]): string {
  const c = new Checker();
  c.errors.push(...prior);
  if ((components === undefined) === (slides === undefined)) throw combine(c.errors);
  const lists = slides === undefined ? [componentList(c, components, 'components')] : slideLists(c, slides);
  if (c.errors.length > 0) throw combine(c.errors);
  const shapes = lists.map(shape);
  if (shapes.some((s) => s === undefined || (slides !== undefined && (s.swipeable || s.destination !== 'WEBSITE')))) {
    throw badRequest('UNKNOWN_CARD_TYPE', slides === undefined
      ? 'components must be one MEDIA or SWIPEABLE_MEDIA component and one DETAILS or BUTTON component'
      : 'each slide must be one MEDIA component and one DETAILS component', slides === undefined ? 'components' : 'slides');
  }
  const types = new Set<string>();
  const problems: WireError[] = [];
  for (const s of shapes) {
    for (const key of s!.media) {
      try {
        const m = libraryMedia(ctx, key, 'media_key');
        if (m.mediaType === 'GIF') problems.push(invalidMedia(`Media ${key} is a GIF; card media must be images or videos`, 'media_key'));
        else types.add(m.mediaType);
      } catch (error) {
        if (!(error instanceof WireError)) throw error;
        problems.push(error);
      }
    }
  }
  if (problems.length > 0) throw combine(problems);
  const first = shapes[0]!;
  if (slides !== undefined) return `${mediaWord(types)}_MULTI_DEST_CAROUSEL_WEBSITE`;
  const word = mediaWord(types);
  const carousel = first.swipeable ? (word === 'MIXED_MEDIA' ? 'MIXED_MEDIA_SINGLE_DEST_CAROUSEL' : `${word}_CAROUSEL`) : word;
  return `${carousel}_${first.destination}`;
}

function slideLists(c: Checker, slides: unknown): Rec[][] {
  if (!Array.isArray(slides) || slides.length < 2 || slides.length > 6) {
    c.errors.push(invalidParameter('slides', 'Expected an array of 2 to 6 slides, each an array of components'));
    return [];
  }
  return slides.map((slide, i) => componentList(c, slide, `slides[${i}]`));
}
