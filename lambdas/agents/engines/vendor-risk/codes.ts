/**
 * Countries written as codes, where a supplier portal, a bank form or an address table puts them: the ISO 3166 code
 * in a Country field or column ("Country: KP", an address table's Country column holding "KP"), the country prefix
 * of an IBAN ("IBAN: IR82 0540 …") and the country letters of a SWIFT/BIC code ("SWIFT: MELIIRTH"). A reviewer reads
 * "KP" in the Country column of a plant as North Korea as surely as the words; a bare two letters anywhere else ("IR
 * sensor", "CU wire") say nothing, so a code is read only in those places, and only in capitals.
 */
import type { Mention } from './tokens.js';

/** ISO 3166 alpha-2 and alpha-3 codes of the listed jurisdictions, by the list's name. Namibia's NA is left out: it is N/A. */
export const CODES: Record<string, string> = {
  IR: 'Iran', IRN: 'Iran',
  KP: 'North Korea', PRK: 'North Korea',
  SY: 'Syria', SYR: 'Syria',
  CU: 'Cuba', CUB: 'Cuba',
  RU: 'Russia', RUS: 'Russia',
  BY: 'Belarus', BLR: 'Belarus',
  MM: 'Myanmar', MMR: 'Myanmar',
  DZ: 'Algeria', AO: 'Angola', BO: 'Bolivia', BG: 'Bulgaria', CM: 'Cameroon', CI: "Cote d'Ivoire",
  CD: 'Democratic Republic of the Congo', HT: 'Haiti', KE: 'Kenya', KW: 'Kuwait', LA: 'Lao PDR', LB: 'Lebanon',
  MC: 'Monaco', NP: 'Nepal', PG: 'Papua New Guinea', SS: 'South Sudan', VE: 'Venezuela', VN: 'Vietnam',
  VG: 'British Virgin Islands', YE: 'Yemen',
};

export interface CodeMention extends Mention {
  name: string;
}

/** A country label ("Country", "Tax Country", "Country code", "Country of incorporation", "Land", "Pays", "País"). */
const COUNTRY_LABEL = /(?<![\p{L}])(?:country|ctry|land|pays|pais|paese)(?:\s+(?:code|of\s+[\p{L} ]{2,30}?))?\s*\*?$/iu;
/** Labels that name a person's origin, not where anyone is (a nationality places no one: jurisdictions.ts). */
const PERSONAL = /nationalit|citizen|birth|passport|origin/i;
/** A field's value: the code alone in its cell, after a colon, a tab, a bar, or two spaces; its label is read before it. */
const FIELD = /(?::|\t|\||[ ]{2,})[ ]*([A-Z]{2,3})(?=[ ]*(?:$|\n|\t|\||[,;)]|[ ]{2,}))/gu;
const IBAN = /(?<![\p{L}\p{N}])([A-Z]{2})\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?(?![\p{L}\p{N}])/gu;
const BIC = /(?<![\p{L}])(?:swift|bic)(?:\s*(?:\/\s*bic|code))?\s*[:#]?\s*([A-Z]{4})([A-Z]{2})[A-Z0-9]{2}(?:[A-Z0-9]{3})?(?![\p{L}\p{N}])/giu;

/** Every listed country a code names, where it stands. */
export function codeMentions(text: string): CodeMention[] {
  const out: CodeMention[] = [];
  const push = (code: string, start: number) => {
    const name = CODES[code];
    if (name) out.push({ start, end: start + code.length, name });
  };
  for (const line of linesOf(text)) {
    for (const m of line.text.matchAll(FIELD)) {
      if (!CODES[m[1]]) continue;
      const label = line.text.slice(Math.max(0, m.index! - 60), m.index!).split(/[\t|:]|[ ]{2,}/).pop()!.trim();
      if (COUNTRY_LABEL.test(label) && !PERSONAL.test(label)) push(m[1], line.at + m.index! + m[0].length - m[1].length);
    }
    if (/iban/i.test(line.text)) for (const m of line.text.matchAll(IBAN)) push(m[1], line.at + m.index!);
  }
  for (const bic of bicCountries(text)) push(bic.code, bic.at);
  out.push(...columnCodes(text));
  return out.sort((a, b) => a.start - b.start);
}

/**
 * The country letters of every SWIFT/BIC code written after its label ("SWIFT: MELIIRTH" → IR), in capitals as a BIC
 * is written, with where the letters stand: what the bank's country is, for the listed jurisdictions here and for an
 * account abroad (./bankabroad.ts).
 */
export function bicCountries(text: string): { code: string; at: number }[] {
  const out: { code: string; at: number }[] = [];
  for (const m of text.matchAll(BIC)) {
    if (m[1] === m[1].toUpperCase() && m[2] === m[2].toUpperCase()) out.push({ code: m[2], at: m.index! + m[0].indexOf(m[1]) + 4 });
  }
  return out;
}

function linesOf(text: string): { text: string; at: number }[] {
  const out: { text: string; at: number }[] = [];
  let at = 0;
  for (const l of text.split('\n')) {
    out.push({ text: l, at });
    at += l.length + 1;
  }
  return out;
}

/** The cells of a table line: split on tabs or bars when it has them, else on runs of two or more spaces. */
function cellsOf(line: string): { text: string; from: number; to: number }[] {
  const keepEmpty = /[\t|]/.test(line);
  const split = keepEmpty ? /[\t|]/g : / {2,}/g;
  const cells: { text: string; from: number; to: number }[] = [];
  let from = 0;
  const add = (to: number) => {
    const raw = line.slice(from, to);
    const lead = raw.length - raw.trimStart().length;
    if (raw.trim() !== '' || keepEmpty) cells.push({ text: raw.trim(), from: from + lead, to: from + lead + raw.trim().length });
  };
  for (const m of line.matchAll(split)) {
    add(m.index!);
    from = m.index! + m[0].length;
  }
  add(line.length);
  return cells;
}

/**
 * A table with a Country column (a header line of at least three cells, one of them the country label): each row
 * under it, up to a blank line, whose cell in that column is a listed code. Columns are matched by position
 * (a code whose cell starts within a few characters of the header's) or, in a tab or bar table, by cell number.
 */
function columnCodes(text: string): CodeMention[] {
  const out: CodeMention[] = [];
  const lines = linesOf(text);
  for (let i = 0; i < lines.length; i++) {
    const header = cellsOf(lines[i].text);
    const byIndex = /[\t|]/.test(lines[i].text);
    if (header.filter((c) => c.text !== '').length < 3) continue;
    const col = header.findIndex((c) => /^(?:country(?:\s+code)?|ctry|land|pays|pais|paese)$/i.test(c.text));
    if (col < 0) continue;
    const { from, to } = header[col];
    for (let j = i + 1; j < lines.length && j <= i + 60 && lines[j].text.trim() !== ''; j++) {
      const row = cellsOf(lines[j].text);
      const cells = byIndex ? [row[col]].filter(Boolean) : row.filter((c) => c.from >= from - 4 && c.from <= to + 4);
      for (const c of cells) {
        if (/^[A-Z]{2,3}$/.test(c.text) && CODES[c.text]) out.push({ start: lines[j].at + c.from, end: lines[j].at + c.to, name: CODES[c.text] });
      }
    }
  }
  return out;
}
