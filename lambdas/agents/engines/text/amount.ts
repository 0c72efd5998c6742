/**
 * Money as written in exports and documents, read into integer cents (bigint); never a float in the arithmetic.
 *
 * Accepted: an optional sign (− and the Japanese △ ▲ too), currency sign or code before or after ($ € £ ¥ ₹ Rs. Rp R$
 * and the ISO codes of CODES; 円 元 원 zł Kč Ft kr after), thousands
 * separators (1,234.56, 1 234.56, or Indian 12,34,567.89), parentheses for negatives ((45.00)), a trailing minus (45.00-), a trailing CR
 * (credit, negative) or DR (Db), and comma decimals when the text is unambiguous (1.234,56 or 12,50). At most two decimal
 * places (parseScaled and parseMoney's `places` read the same grammar to six, for unit prices). Refused (undefined):
 * empty text, exponents (1e309), more decimals than allowed, several numbers, anything else.
 */

// The yen and won signs in their full-width forms and the unit written after the figure (1,320,000円, 5,000元, 3,000원).
// The codes and signs of the currencies banks export in, before or after the figure (COP 1.250.000, 1 250,00 zł, Rp
// 1.250.000, 12.500 ₫, NT$ 3,000, 250.00 SAR). Not the dinars and rials counted in thousandths (KWD, BHD, OMR, JOD,
// TND): read as two decimals they would be wrong, so a figure marked with one is refused.
const CODES = 'USD|EUR|GBP|CAD|AUD|NZD|INR|MXN|COP|CLP|PEN|ARS|UYU|BRL|KRW|JPY|CNY|RMB|TWD|NTD|HKD|SGD|SAR|AED|QAR|PLN|CZK|HUF|RON|TRY|VND|IDR|THB|MYR|PHP|ZAR|CHF|SEK|NOK|DKK|ILS';
const SIGNS_BEFORE = 'US\\$|NT\\$|HK\\$|S\\$|R\\$|\\$|€|£|¥|￥|₩|₹|₺|₫|₱|₪|฿|Rs\\.?|Rp\\.?|RM';
const SIGNS_AFTER = 'US\\$|\\$|€|£|¥|￥|₩|₹|₺|₫|₱|₪|฿|円|元|원|zł|Kč|Ft|kr|lei|TL|đ';
const CURRENCY = new RegExp(`^(?:${SIGNS_BEFORE}|(?:${CODES})(?![a-z]))\\s*|\\s*(?:${SIGNS_AFTER}|(?<![a-z])(?:${CODES}))$`, 'i');

export function parseCents(text: string): bigint | undefined {
  return parseScaled(text, 2);
}

/**
 * The same reading to `places` decimals (2 to 6), as an integer count of 10^-places units: cents for 2, millionths
 * for 6 (a unit price of 0.0785). A comma is a decimal mark here only with one or two digits after it, as above.
 */
export function parseScaled(text: string, places: number): bigint | undefined {
  let s = text.trim();
  if (s.length === 0 || s.length > 40) return undefined;
  let negative = false;
  const flip = () => {
    if (negative) return false;
    negative = true;
    return true;
  };
  if (/^\(.*\)$/.test(s)) {
    flip();
    s = s.slice(1, -1).trim();
  }
  const suffix = /\s*(CR|DR|DB)$/i.exec(s);
  if (suffix) {
    if (suffix[1].toUpperCase() === 'CR' && !flip()) return undefined;
    s = s.slice(0, suffix.index).trim();
  }
  for (let i = 0; i < 2; i++) {
    // △ and ▲ are the minus sign of Japanese accounts (▲18,744 is −18,744); − is the typographic minus.
    if (/^[-+△▲−]/.test(s)) {
      if (s[0] !== '+' && !flip()) return undefined;
      s = s.slice(1).trim();
    } else if (/-$/.test(s)) {
      if (!flip()) return undefined;
      s = s.slice(0, -1).trim();
    }
    s = s.replace(CURRENCY, '').trim();
  }
  if (/^\(.*\)$/.test(s)) {
    if (!flip()) return undefined;
    s = s.slice(1, -1).trim();
  }
  const digits = normaliseSeparators(s);
  if (digits === undefined) return undefined;
  const m = FRACTION[places]?.exec(digits);
  if (!m) return undefined;
  const units = BigInt(m[1]) * 10n ** BigInt(places) + BigInt((m[2] ?? '').padEnd(places, '0') || '0');
  return negative ? -units : units;
}

/** Digits with at most `places` decimals. */
const FRACTION: Record<number, RegExp> = Object.fromEntries([2, 3, 4, 5, 6].map((p) => [p, new RegExp(`^(\\d+)(?:\\.(\\d{1,${p}}))?$`)]));

/** "1,234.56" / "1 234.56" / "12,34,567.89" / "1.234,56" / "12,50" → "1234.56" / … / "12.50"; undefined when the grouping is wrong. */
function normaliseSeparators(s: string): string | undefined {
  if (/^\d+(?:\.\d+)?$/.test(s)) return s;
  // 1,234,567.89 or 1 234 567.89 (groups of three)
  let m = /^(\d{1,3}(?:([, \u00a0\u202f'])\d{3})(?:\2\d{3})*)(\.\d+)?$/.exec(s);
  if (m) return m[1].replace(/[, \u00a0\u202f']/g, '') + (m[3] ?? '');
  // 12,34,567.89 (Indian grouping: twos before the last three)
  m = /^(\d{1,2}(?:,\d{2})+,\d{3})(\.\d+)?$/.exec(s);
  if (m) return m[1].replace(/,/g, '') + (m[2] ?? '');
  // 1.234.567,89 (dots group, comma decimal)
  m = /^(\d{1,3}(?:\.\d{3})+),(\d{1,2})$/.exec(s);
  if (m) return `${m[1].replace(/\./g, '')}.${m[2]}`;
  // 12,50 (comma decimal without grouping; a comma followed by exactly three digits is a thousands separator above)
  m = /^(\d+),(\d{1,2})$/.exec(s);
  if (m) return `${m[1]}.${m[2]}`;
  return undefined;
}

/** 123456n → "1234.56", -5n → "-0.05". */
export function formatCents(cents: bigint): string {
  const sign = cents < 0n ? '-' : '';
  const abs = cents < 0n ? -cents : cents;
  return `${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/** Cents as a JSON number of currency units (two decimals exactly representable as the nearest double). */
export function centsToNumber(cents: bigint): number {
  return Number(formatCents(cents));
}

export type DecimalMark = '.' | ',';

const CORE = /\d(?:[\d.,'\u00a0\u202f ]*\d)?/;
/**
 * Digits grouped by threes (1,234,567), or by twos before a last three as Indian amounts are (12,34,567: lakh and
 * crore), or not at all, then the decimal mark and at most `places` decimals. The document's decimal mark is its
 * evidence: every other separator in a figure is grouping.
 */
function grouped(mark: DecimalMark, places: number): RegExp {
  const group = mark === '.' ? `[,'\\u00a0\\u202f ]` : `[.'\\u00a0\\u202f ]`;
  const lakh = mark === '.' ? `[,']` : `[.']`;
  return new RegExp(
    `^(\\d{1,3}(?:(${group})\\d{3})?(?:\\2\\d{3})*|\\d{1,2}(${lakh})\\d{2}(?:\\3\\d{2})*\\3\\d{3}|\\d+)(?:\\${mark}(\\d{1,${places}}))?$`,
  );
}
const GROUPED: Record<string, RegExp> = Object.fromEntries(
  (['.', ','] as const).flatMap((mark) => [2, 3, 4, 5, 6].map((p) => [`${mark}${p}`, grouped(mark, p)])),
);

/**
 * Money read under one decimal convention decided for the whole document ("1.234" is 1234.00 where the decimal mark
 * is a comma, "1,234" is 1234.00 where it is a point); signs, currency and parentheses as parseCents reads them. With
 * `places` above 2 (a unit price "0,0185"), the result counts 10^-places units, as parseScaled's.
 */
export function parseMoney(text: string, mark: DecimalMark, places = 2): bigint | undefined {
  const core = CORE.exec(text);
  if (!core) return undefined;
  const m = GROUPED[`${mark}${places}`]?.exec(core[0]);
  if (!m) return undefined;
  const plain = `${m[1].replace(/[^\d]/g, '')}${m[4] === undefined ? '' : `.${m[4]}`}`;
  return parseScaled(text.slice(0, core.index) + plain + text.slice(core.index + core[0].length), places);
}

/**
 * The decimal mark a document uses, from the figures that show it: "1.234,56", "12,50" or "1.460.000" (comma),
 * "1,234.56", "12.50" or "2,106,880" (point). The majority wins; a document with no such figure (or a tie) reads with a point.
 */
export function decimalMarkOf(cells: Iterable<string>): { mark: DecimalMark; comma: number; point: number } {
  let comma = 0;
  let point = 0;
  for (const cell of cells) {
    const core = CORE.exec(cell)?.[0];
    if (!core) continue;
    // A mark used twice in one figure (1.460.000, 2,106,880) can only be grouping: the other one is the decimal mark.
    if (/,\d{1,2}$/.test(core) || /\.\d{3},/.test(core) || /^\d{1,3}(?:\.\d{3}){2,}$/.test(core)) comma++;
    else if (/\.\d{1,2}$/.test(core) || /,\d{3}\./.test(core) || /^\d{1,3}(?:,\d{3}){2,}$/.test(core)) point++;
  }
  return { mark: comma > point ? ',' : '.', comma, point };
}
