/**
 * The words expense tools and policies name a category by, per language, beyond the English, German, Italian,
 * French, Spanish, Portuguese, Dutch and Swedish ones words.ts has always read: adding a language is adding its words
 * here. Words are matched whole (no letter either side) in scripts written with spaces, anywhere in the text for
 * Chinese, Japanese and Korean. A word that is also common in another sense ("dieta" is a diet only in a claim's
 * category cell, where it is the allowance) is kept to the phrases the tools print.
 */
import type { Category } from './words.js';

type Words = Partial<Record<Category, string[]>>;

const LANGUAGES: Record<string, Words> = {
  // The allowance and the car's kilometres, as N2F, Expensya, Spendesk print them.
  fr: {
    'per diem': ['indemnité journalière', 'indemnités journalières', 'indemnité de mission', 'indemnités de mission', 'forfait repas', 'per diem'],
    mileage: ['indemnités kilométriques', 'indemnité kilométrique', 'frais kilométriques', 'kilométrage'],
    ground: ['vtc', 'transports en commun', 'métro'],
  },
  es: {
    'per diem': ['dieta', 'dietas', 'dieta completa', 'media dieta', 'dieta nacional', 'dieta internacional', 'viático diario'],
    mileage: ['kilometraje', 'vehículo propio'],
    ground: ['transporte terrestre', 'taxi', 'metro', 'autobús', 'transporte público'],
  },
  pt: {
    'per diem': ['ajudas de custo', 'ajuda de custo', 'diária de alimentação', 'diárias de alimentação'],
    mileage: ['quilómetros', 'quilômetros', 'quilometragem', 'viatura própria', 'veículo próprio'],
    ground: ['transporte - app', 'transporte por aplicativo', 'táxi', 'metrô'],
  },
  it: { 'per diem': ['diaria', 'indennità di trasferta'], mileage: ['rimborso chilometrico', 'rimborsi chilometrici', 'auto propria'], ground: ['metropolitana', 'mezzi pubblici'] },
  de: {
    'per diem': ['tagegeld', 'tagegelder', 'verpflegungspauschale'], ground: ['öpnv', 'nahverkehr', 'u-bahn', 's-bahn', 'tageskarte', 'ganztageskarte'],
    rail: ['db fernverkehr', 'fernverkehr', 'sparpreis', 'flexpreis'],
  },
  nl: { 'per diem': ['dagvergoeding', 'verblijfkostenvergoeding'], mileage: ['kilometervergoeding'], ground: ['openbaar vervoer'] },
  sv: { 'per diem': ['traktamente'], mileage: ['milersättning'], ground: ['kollektivtrafik'] },
  da: { 'per diem': ['dagpenge', 'diæter'], mileage: ['kørselsgodtgørelse'] },
  fi: { 'per diem': ['päiväraha'], mileage: ['kilometrikorvaus'] },
  pl: {
    'per diem': ['dieta', 'diety', 'dieta krajowa', 'dieta zagraniczna'], mileage: ['kilometrówka', 'ryczałt za kilometry'],
    lodging: ['nocleg', 'noclegi', 'hotel'], rail: ['pkp', 'pociąg', 'bilet kolejowy'], meals: ['posiłek', 'posiłki', 'obiad', 'kolacja', 'śniadanie'],
    ground: ['taksówka', 'komunikacja miejska'], parking: ['parking'], airfare: ['bilet lotniczy', 'przelot'],
  },
  cs: { 'per diem': ['stravné'], mileage: ['náhrada za km'], lodging: ['ubytování'], meals: ['stravování'] },
  hu: { 'per diem': ['napidíj'], lodging: ['szállás'] },
  ro: { 'per diem': ['diurnă', 'diurna'], lodging: ['cazare'] },
  tr: {
    'per diem': ['harcırah', 'gündelik'], lodging: ['konaklama', 'otel'], meals: ['yemek'], ground: ['taksi'], airfare: ['uçak bileti', 'uçuş'],
    rail: ['tren'], parking: ['otopark'], fuel: ['yakıt', 'akaryakıt'],
  },
  id: {
    'per diem': ['uang harian', 'uang saku'], lodging: ['penginapan', 'hotel'], meals: ['makan', 'konsumsi'], ground: ['taksi', 'transportasi darat'],
    airfare: ['tiket pesawat'], rail: ['kereta'], parking: ['parkir'], fuel: ['bensin', 'bbm'],
  },
  vi: {
    'per diem': ['công tác phí', 'phụ cấp lưu trú'], lodging: ['khách sạn', 'lưu trú', 'phòng nghỉ'], meals: ['ăn uống', 'tiếp khách'],
    ground: ['taxi', 'xe ôm'], airfare: ['vé máy bay'], rail: ['tàu hỏa'], parking: ['gửi xe', 'đỗ xe'], fuel: ['xăng'],
  },
  ja: {
    'per diem': ['日当', '出張手当'], lodging: ['宿泊', 'ホテル'], meals: ['食事', '飲食', '会食', '昼食', '夕食', '朝食代'],
    // A subway is a railway ("電車" in a policy covers the Metro); "メトロ" but not a hotel's "メトロポリタン".
    ground: ['タクシー', 'バス'], rail: ['新幹線', '電車', '特急', '地下鉄', 're:メトロ(?!ポリタン)'], airfare: ['航空券', '航空運賃', '飛行機'],
    parking: ['駐車場', '駐車料'], fuel: ['ガソリン'], entertainment: ['接待'],
  },
  zh: {
    'per diem': ['出差补贴', '出差补助', '餐补', '日津贴'], lodging: ['住宿', '酒店'], meals: ['餐费', '餐饮', '伙食'],
    ground: ['出租车', '打车', '滴滴'], rail: ['高铁', '火车', '动车', '地铁'], airfare: ['机票', '航班'], parking: ['停车'], fuel: ['油费', '加油'],
    entertainment: ['招待', '业务招待'],
  },
  ko: {
    'per diem': ['일비', '출장비 일당', '일당'], lodging: ['숙박', '호텔'], meals: ['식대', '식비', '식사'], ground: ['택시', '버스'],
    rail: ['ktx', '기차', '지하철'], airfare: ['항공권', '항공료'], parking: ['주차'], fuel: ['유류비', '주유'], entertainment: ['접대'],
  },
};

const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A category's words in the languages above, as one regex alternative ("|…") to append to its English words. */
export function localWords(category: Category): string {
  const words = Object.values(LANGUAGES).flatMap((l) => l[category] ?? []);
  if (words.length === 0) return '';
  // A word written "re:…" is a pattern of its own (a word but not the longer word it opens).
  const as = (w: string) => (w.startsWith('re:') ? w.slice(3) : escape(w));
  const spaced = words.filter((w) => !UNSPACED.test(w)).sort((a, b) => b.length - a.length).map(as);
  const unspaced = words.filter((w) => UNSPACED.test(w)).map(as);
  return [spaced.length > 0 ? `(?<![\\p{L}])(?:${spaced.join('|')})(?![\\p{L}])` : '', unspaced.length > 0 ? `(?:${unspaced.join('|')})` : '']
    .filter(Boolean).map((a) => `|${a}`).join('');
}
