/**
 * Localized names for the `lang` parameter of targeting criteria and platform lookups, which adds
 * `localized_name` "for objects where a localized name is available". The emulator has them for
 * languages, countries and platforms in English, Spanish, French, German, Japanese and Portuguese.
 */
import { LOCATIONS } from './locations.js';
import { LANGUAGES, PLATFORMS } from './targeting-values.js';

type Names = Readonly<Record<string, readonly [es: string, fr: string, de: string, ja: string, pt: string]>>;

const LANGS = ['es', 'fr', 'de', 'ja', 'pt'] as const;

const LANGUAGE_NAMES: Names = {
  en: ['Inglés', 'Anglais', 'Englisch', '英語', 'Inglês'],
  es: ['Español', 'Espagnol', 'Spanisch', 'スペイン語', 'Espanhol'],
  fr: ['Francés', 'Français', 'Französisch', 'フランス語', 'Francês'],
  de: ['Alemán', 'Allemand', 'Deutsch', 'ドイツ語', 'Alemão'],
  ja: ['Japonés', 'Japonais', 'Japanisch', '日本語', 'Japonês'],
  pt: ['Portugués', 'Portugais', 'Portugiesisch', 'ポルトガル語', 'Português'],
  it: ['Italiano', 'Italien', 'Italienisch', 'イタリア語', 'Italiano'],
  nl: ['Neerlandés', 'Néerlandais', 'Niederländisch', 'オランダ語', 'Holandês'],
  ko: ['Coreano', 'Coréen', 'Koreanisch', '韓国語', 'Coreano'],
  ar: ['Árabe', 'Arabe', 'Arabisch', 'アラビア語', 'Árabe'],
  hi: ['Hindi', 'Hindi', 'Hindi', 'ヒンディー語', 'Hindi'],
  tr: ['Turco', 'Turc', 'Türkisch', 'トルコ語', 'Turco'],
  ru: ['Ruso', 'Russe', 'Russisch', 'ロシア語', 'Russo'],
  sv: ['Sueco', 'Suédois', 'Schwedisch', 'スウェーデン語', 'Sueco'],
  pl: ['Polaco', 'Polonais', 'Polnisch', 'ポーランド語', 'Polonês'],
  id: ['Indonesio', 'Indonésien', 'Indonesisch', 'インドネシア語', 'Indonésio'],
};

const COUNTRY_NAMES: Names = {
  US: ['Estados Unidos', 'États-Unis', 'Vereinigte Staaten', 'アメリカ合衆国', 'Estados Unidos'],
  GB: ['Reino Unido', 'Royaume-Uni', 'Vereinigtes Königreich', 'イギリス', 'Reino Unido'],
  CA: ['Canadá', 'Canada', 'Kanada', 'カナダ', 'Canadá'],
  AU: ['Australia', 'Australie', 'Australien', 'オーストラリア', 'Austrália'],
  DE: ['Alemania', 'Allemagne', 'Deutschland', 'ドイツ', 'Alemanha'],
  FR: ['Francia', 'France', 'Frankreich', 'フランス', 'França'],
  ES: ['España', 'Espagne', 'Spanien', 'スペイン', 'Espanha'],
  IT: ['Italia', 'Italie', 'Italien', 'イタリア', 'Itália'],
  NL: ['Países Bajos', 'Pays-Bas', 'Niederlande', 'オランダ', 'Países Baixos'],
  IE: ['Irlanda', 'Irlande', 'Irland', 'アイルランド', 'Irlanda'],
  JP: ['Japón', 'Japon', 'Japan', '日本', 'Japão'],
  KR: ['Corea del Sur', 'Corée du Sud', 'Südkorea', '韓国', 'Coreia do Sul'],
  BR: ['Brasil', 'Brésil', 'Brasilien', 'ブラジル', 'Brasil'],
  MX: ['México', 'Mexique', 'Mexiko', 'メキシコ', 'México'],
  AR: ['Argentina', 'Argentine', 'Argentinien', 'アルゼンチン', 'Argentina'],
  CO: ['Colombia', 'Colombie', 'Kolumbien', 'コロンビア', 'Colômbia'],
  CL: ['Chile', 'Chili', 'Chile', 'チリ', 'Chile'],
  IN: ['India', 'Inde', 'Indien', 'インド', 'Índia'],
  SE: ['Suecia', 'Suède', 'Schweden', 'スウェーデン', 'Suécia'],
  ZA: ['Sudáfrica', 'Afrique du Sud', 'Südafrika', '南アフリカ', 'África do Sul'],
};

const PLATFORM_NAMES: Names = {
  '0': ['iOS', 'iOS', 'iOS', 'iOS', 'iOS'],
  '1': ['Android', 'Android', 'Android', 'Android', 'Android'],
  '2': ['Teléfonos y tabletas BlackBerry', 'Téléphones et tablettes BlackBerry', 'BlackBerry-Telefone und -Tablets', 'BlackBerryの携帯電話とタブレット', 'Telefones e tablets BlackBerry'],
  '3': ['Web móvil en otros dispositivos', "Web mobile sur d'autres appareils", 'Mobiles Web auf anderen Geräten', 'その他のデバイスのモバイルウェブ', 'Web móvel em outros dispositivos'],
  '4': ['Computadoras de escritorio y portátiles', 'Ordinateurs de bureau et portables', 'Desktop-Computer und Laptops', 'デスクトップとノートパソコン', 'Computadores desktop e notebooks'],
};

const COUNTRY_CODE_BY_VALUE = new Map(LOCATIONS.filter((l) => l.location_type === 'COUNTRIES').map((l) => [l.targeting_value, l.country_code]));
const ENGLISH = new Map<string, string>([
  ...LANGUAGES.map((l) => [`LANGUAGE:${l.targeting_value}`, l.name] as const),
  ...PLATFORMS.map((p) => [`PLATFORM:${p.targeting_value}`, p.name] as const),
  ...LOCATIONS.filter((l) => l.location_type === 'COUNTRIES').map((l) => [`LOCATION:${l.targeting_value}`, l.name] as const),
]);

/**
 * The name of a LANGUAGE, PLATFORM or country LOCATION value in the ISO 639-1 language `lang`, or
 * undefined when the emulator has none (other types, other locations, other languages).
 */
export function localizedName(targetingType: string, targetingValue: string, lang: string): string | undefined {
  const key = `${targetingType}:${targetingValue}`;
  if (lang === 'en') return ENGLISH.get(key);
  const at = (LANGS as readonly string[]).indexOf(lang);
  if (at < 0) return undefined;
  const table = targetingType === 'LANGUAGE' ? LANGUAGE_NAMES : targetingType === 'PLATFORM' ? PLATFORM_NAMES : targetingType === 'LOCATION' ? COUNTRY_NAMES : undefined;
  const id = targetingType === 'LOCATION' ? COUNTRY_CODE_BY_VALUE.get(targetingValue) : targetingValue;
  if (table === undefined || id === undefined) return undefined;
  return table[id]?.[at];
}
