/**
 * ISO 4217 codes a purchase order or an invoice prints beside its amounts ("Total  PHP  190,120.00", "Total TTC  CHF
 * 2'130.65"): a code between a summary label and its amount is the currency, never the label. Codes that are also
 * common English words in upper case (ALL, TOP, CUP, PEN, TRY …) are left out, so an item or label word is never
 * taken for a currency.
 */
const CODES = new Set(
  ('USD EUR GBP CAD AUD NZD JPY CNY HKD SGD CHF SEK NOK DKK ISK PLN CZK HUF RON BGN MXN BRL ARS CLP COP UYU INR PKR ' +
    'BDT LKR PHP THB MYR IDR VND KRW TWD ZAR KES NGN GHS EGP MAD AED SAR QAR KWD BHD OMR ILS RUB UAH KZT')
    .split(' '),
);

/** "PHP", "chf", "US$", "€": a currency written on its own. */
export function isCurrencyWord(text: string): boolean {
  const t = text.trim();
  return /^(?:US\$|C\$|CA\$|A\$|\$|€|£|¥|₹|zł|kr\.?)$/i.test(t) || CODES.has(t.toUpperCase());
}

/** The ISO codes as one regex alternation, for a code written after an amount. */
export const CURRENCY_CODES = [...CODES].join('|');

/** Codes beyond the few a text names by sign or by a code long read (USD, EUR …), found in upper case only. */
export const MORE_CODES = new RegExp(`\\b(${[...CODES].join('|')})\\b`, 'g');
