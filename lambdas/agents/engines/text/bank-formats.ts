/**
 * The banks' own statement formats read into signed transactions, each with the line holding its amount: OFX/QFX
 * (bank and investment statements), CAMT.053 and MT940. Their documented fields are read directly (compact readers:
 * the XML and SGML libraries that would do it do not fit the bundle budget).
 */
import { AgentInputError } from '../port.js';
import { decimalMarkOf, parseMoney } from './amount.js';
import { readDate } from './dates.js';
import type { Statement } from './ledger.js';
import type { Transaction } from './table.js';

/** 1-based line of each offset of a text. */
function lineIndex(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
  }
  return (offset) => {
    let [lo, hi] = [0, starts.length - 1];
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

const decode = (s: string) =>
  s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&').trim();
const isoOf = (digits: string) => `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}`;

function line(field: string, k: number, dateText: string, amountCents: bigint | undefined, description: string, reference: string | undefined, at: number): Transaction {
  const date = readDate(dateText, 'mdy');
  if (date === undefined) throw new AgentInputError(field, `transaction ${k}: date ${JSON.stringify(dateText.slice(0, 40))} is not a date`);
  if (amountCents === undefined) throw new AgentInputError(field, `transaction ${k}: the amount is not an amount`);
  return {
    row: k,
    date,
    dateText,
    description: decode(description).replace(/\s+/g, ' ').slice(0, 500),
    amountCents,
    ...(reference ? { reference: decode(reference).slice(0, 100) } : {}),
    amountText: (Number(amountCents) / 100).toFixed(2),
    line: at,
  };
}

/**
 * OFX 1.x (SGML, leaf tags unclosed) and 2.x (XML). A bank statement's lines are its <STMTTRN>s, TRNAMT signed. An
 * investment statement's cash moves are its bank transactions (INVBANKTRAN's STMTTRN) and the cash TOTAL of each
 * income, buy, sell, return of capital, margin interest and expense (settlement date, else trade date); a
 * reinvestment moves no cash, and positions, balances and the security list are not lines.
 */
export function readOfx(text: string, field: string): Statement {
  const at = lineIndex(text);
  const blocks = [...text.matchAll(/<(STMTTRN|INCOME|BUY[A-Z]+|SELL[A-Z]+|RETOFCAP|MARGININTEREST|INVEXPENSE)>[\s\S]*?<\/\1>/gi)];
  const leaf = (block: string, tag: string) => new RegExp(`<${tag}>([^<\\r\\n]*)`, 'i').exec(block)?.[1].trim() ?? '';
  const amountOf = (block: string) => (/^<STMTTRN>/i.test(block) ? 'TRNAMT' : 'TOTAL');
  const mark = decimalMarkOf(blocks.map(([b]) => leaf(b, amountOf(b)))).mark;
  const seen = new Set<string>();
  const lines: Transaction[] = [];
  let repeats = 0;
  let investment = 0;
  for (const { 0: b, index } of blocks) {
    const fitid = leaf(b, 'FITID');
    if (fitid && seen.has(fitid)) {
      repeats++;
      continue;
    }
    if (fitid) seen.add(fitid);
    const tag = amountOf(b);
    if (tag === 'TOTAL') investment++;
    const posted = (leaf(b, 'DTPOSTED') || leaf(b, 'DTSETTLE') || leaf(b, 'DTTRADE')).slice(0, 8);
    const text = [leaf(b, 'NAME'), leaf(b, 'PAYEE'), leaf(b, 'MEMO')].filter((t) => t).join(' ');
    const amountAt = at(index! + Math.max(0, b.search(new RegExp(`<${tag}>`, 'i'))));
    lines.push(line(field, lines.length + 1, isoOf(posted), parseMoney(leaf(b, tag), mark), text, leaf(b, 'CHECKNUM') || leaf(b, 'REFNUM'), amountAt));
  }
  const notes = ['read as an OFX statement: each STMTTRN is one line, TRNAMT signed; the ledger and available balances are not lines'];
  if (investment > 0) notes.push(`${investment} investment transaction${investment === 1 ? '' : 's'} (income, buys, sells) read by the cash TOTAL each moved, dated by settlement; positions and the security list are not lines`);
  if (repeats > 0) notes.push(`${repeats} STMTTRN repeat${repeats === 1 ? 's' : ''} an earlier FITID (the same line downloaded twice) and ${repeats === 1 ? 'is' : 'are'} read once`);
  return { lines, notes, dates: {} };
}

/** CAMT.053: each <Ntry> is one statement line (its TxDtls, even several, are details of that one line). */
export function readCamt(text: string, field: string): Statement {
  const at = lineIndex(text);
  const lines: Transaction[] = [];
  let batches = 0;
  let unitemised = 0;
  let pending = 0;
  for (const { 0: block, index } of text.matchAll(/<Ntry>[\s\S]*?<\/Ntry>/g)) {
    const head = block.replace(/<NtryDtls>[\s\S]*?<\/NtryDtls>/g, '');
    const tag = (t: string, s = head) => new RegExp(`<${t}(?:\\s[^>]*)?>([^<]*)</${t}>`).exec(s)?.[1].trim() ?? '';
    const status = /<Sts>\s*(?:<Cd>)?\s*(\w+)/.exec(head)?.[1];
    if (status && status !== 'BOOK') {
      pending++;
      continue;
    }
    const cents = parseMoney(tag('Amt'), '.');
    const sign = tag('CdtDbtInd') === 'DBIT' ? -1n : 1n;
    const date = /<BookgDt>\s*<(?:Dt|DtTm)>([^<]{10})/.exec(head)?.[1] ?? /<ValDt>\s*<(?:Dt|DtTm)>([^<]{10})/.exec(head)?.[1] ?? '';
    const all = (t: string) => [...block.matchAll(new RegExp(`<${t}>([^<]*)</${t}>`, 'g'))].map((m) => m[1].trim());
    const items = cents === undefined ? undefined : itemsOf(block, index!, sign, sign * cents, at);
    if ((block.match(/<TxDtls>/g) ?? []).length > 1) batches++;
    if ((block.match(/<TxDtls>/g) ?? []).length > 1 && !items) unitemised++;
    const e2e = all('EndToEndId').find((r) => r !== 'NOTPROVIDED');
    const text = [...all('Nm'), ...all('Ustrd'), tag('AddtlNtryInf'), ...all('AddtlTxInf')].filter((t) => t).join(' ');
    const amountAt = at(index! + Math.max(0, block.search(/<Amt\b/)));
    const read = line(field, lines.length + 1, date, cents === undefined ? undefined : sign * cents, text, e2e ?? tag('AcctSvcrRef'), amountAt);
    lines.push(items ? { ...read, items } : read);
  }
  const notes = ['read as a CAMT.053 statement: each Ntry is one line (Amt with CdtDbtInd, booking date); the Bal and TxsSummry blocks are not lines'];
  if (batches > 0) {
    notes.push(`${batches} entr${batches === 1 ? 'y carries' : 'ies carry'} several TxDtls (a batch): one bank line each, its items kept to be matched one by one` +
      (unitemised > 0 ? ` (${unitemised} whose items do not add up to the entry: matched by the total only)` : ''));
  }
  if (pending > 0) notes.push(`${pending} entr${pending === 1 ? 'y is' : 'ies are'} not booked (Sts other than BOOK) and ${pending === 1 ? 'is' : 'are'} left out`);
  return { lines, notes, dates: {} };
}

/**
 * A batch entry's items: each TxDtls with its own amount (AmtDtls/TxAmt/Amt, else its Amt), its direction (its own
 * CdtDbtInd, else the entry's), its parties' names and remittance text. Kept only when there are two or more and
 * they add up exactly to the entry, so a breakdown that does not explain the entry is never matched item by item.
 */
function itemsOf(block: string, offset: number, sign: bigint, total: bigint, at: (offset: number) => number): Transaction['items'] {
  const items: NonNullable<Transaction['items']> = [];
  for (const { 0: tx, index } of block.matchAll(/<TxDtls>[\s\S]*?<\/TxDtls>/g)) {
    const amount = /<TxAmt>\s*<Amt\b[^>]*>([^<]*)<\/Amt>/.exec(tx)?.[1] ?? /<Amt\b[^>]*>([^<]*)<\/Amt>/.exec(tx)?.[1];
    const cents = amount === undefined ? undefined : parseMoney(amount.trim(), '.');
    if (cents === undefined) return undefined;
    const own = /<CdtDbtInd>\s*(CRDT|DBIT)\s*<\/CdtDbtInd>/.exec(tx)?.[1];
    const dir = own === undefined ? sign : own === 'DBIT' ? -1n : 1n;
    const texts = [...tx.matchAll(/<(Nm|Ustrd|Ref|EndToEndId|AddtlTxInf)>([^<]*)<\/\1>/g)].map((m) => m[2].trim()).filter((t) => t && t !== 'NOTPROVIDED');
    items.push({ amountCents: dir * cents, text: decode(texts.join(' ')).replace(/\s+/g, ' ').slice(0, 300), line: at(offset + index! + Math.max(0, tx.search(/<Amt\b/))) });
  }
  if (items.length < 2 || items.reduce((s, i) => s + i.amountCents, 0n) !== total) return undefined;
  return items;
}

/** The subfield codes of a structured :86: (the Dutch banks' /CODE/value/ layout, SWIFT's narrative codes). */
const CODES_86 = 'TRTP|IBAN|BIC|NAME|REMI|EREF|OCMT|EXCH|CHGS|ADDR|CSID|MARF|ORDP|BENM|SVCL|PREF|RTRN|ULTC|ULTD|PURP|ISDT|CDTRREF|CDTRREFTP|ISSR|USTD|STRD|CUR|ACCW';
const FIELD_86 = new RegExp(`/(${CODES_86})/`, 'g');

/**
 * A structured :86: (`/NAME/ZAANSE BV/REMI/FACTUUR 1171/EREF/ZCF-88`), its lines already joined (banks wrap it at
 * 65 characters, mid-word): the counterparty's name first, then what the payment says it pays, then the other
 * subfields as `CODE value`, each apart, so a reference quoted in /REMI/ or /EREF/ is a word of its own and not run
 * together with the next code. Undefined when the text is not in that layout.
 */
export function structured86(text: string): string | undefined {
  const t = text.trim();
  if (!new RegExp(`^/(?:${CODES_86})/`).test(t)) return undefined;
  const parts: [string, string][] = [];
  const marks = [...t.matchAll(FIELD_86)];
  marks.forEach((m, i) => {
    const end = i + 1 < marks.length ? marks[i + 1].index! : t.length;
    const value = t.slice(m.index! + m[0].length, end).replace(/\/+$/, '').trim();
    if (value !== '' && value !== 'NOTPROVIDED') parts.push([m[1], value]);
  });
  // A structured remittance (/REMI/STRD/CUR/<payment reference>): the creditor's reference is what it pays.
  const strd = parts.findIndex(([c, v]) => c === 'REMI' && v === 'STRD');
  if (strd >= 0 && parts[strd + 1]?.[0] === 'CUR') parts.splice(strd, 2, ['REMI', parts[strd + 1][1]]);
  if (parts.length === 0) return undefined;
  const of = (code: string) => parts.filter(([c]) => c === code).map(([, v]) => v);
  const rest = parts.filter(([c]) => c !== 'NAME' && c !== 'REMI').map(([c, v]) => `${c} ${v}`);
  return [...of('NAME'), ...of('REMI'), ...rest].join(' / ');
}

const SWIFT_61 = /^(\d{2})(\d{2})(\d{2})(\d{2})?(\d{2})?(RC|RD|C|D)[A-Z]?(\d+,\d{0,2})[A-Z][A-Z0-9]{3}([^/\n]*)/;

/**
 * MT940: each :61: is a line (value date, entry date, C/D/RC/RD mark, amount with a decimal comma); :86: its text.
 * A message that closes with an intermediate balance (:62M:) and no final one (:62F:) is one part of a statement
 * that continues in another message: what the bank booked after its last day is not in it.
 */
export function readMt940(text: string, field: string): Statement {
  const fields: [string, string, number][] = [];
  text.split(/\r\n|\r|\n/).forEach((l, i) => {
    const m = /^:(\d{2}[A-Z]?):(.*)$/.exec(l);
    if (m) fields.push([m[1], m[2], i + 1]);
    else if (fields.length > 0 && l.trim() !== '-') fields[fields.length - 1][1] += `\n${l}`;
  });
  const lines: Transaction[] = [];
  fields.forEach(([tag, value, at], i) => {
    if (tag !== '61') return;
    const m = SWIFT_61.exec(value);
    const k = lines.length + 1;
    if (!m) throw new AgentInputError(field, `transaction ${k}: :61: ${JSON.stringify(value.slice(0, 40))} is not a statement line`);
    const [, yy, vm, vd, em, ed, mark, amount, ref] = m;
    let year = 2000 + Number(yy);
    if (em && Number(em) === 12 && Number(vm) === 1) year--;
    if (em && Number(em) === 1 && Number(vm) === 12) year++;
    const date = em && ed ? `${year}-${em}-${ed}` : `${year}-${vm}-${vd}`;
    const cents = parseMoney(amount, ',');
    const sign = mark === 'C' || mark === 'RD' ? 1n : -1n;
    const next = fields[i + 1];
    const joined = next?.[0] === '86' ? next[1].replace(/\r?\n/g, '') : '';
    const narrative = structured86(joined) ?? joined.replace(/\?\d{2}/g, ' ').replace(/~\d{2}/g, ' ');
    lines.push(line(field, k, date, cents === undefined ? undefined : sign * cents, narrative, ref && ref !== 'NONREF' ? ref : undefined, at));
  });
  const notes = ['read as an MT940 statement: each :61: is one line (C and RD money in, D and RC money out; decimal comma), :86: its text; :60F:/:62F: are balances'];
  const intermediate = fields.filter(([tag]) => tag === '62M').pop();
  const final = fields.some(([tag]) => tag === '62F');
  const until = intermediate && /^[CD](\d{6})/.exec(intermediate[1].trim())?.[1];
  if (intermediate && !final && until) {
    const day = readDate(`20${until.slice(0, 2)}-${until.slice(2, 4)}-${until.slice(4, 6)}`, 'mdy');
    if (day !== undefined) {
      notes.push(`the message ends at an intermediate balance (:62M: of 20${until.slice(0, 2)}-${until.slice(2, 4)}-${until.slice(4, 6)}) with no final :62F:: the statement continues in a further message, so nothing after that day can be confirmed from this one`);
      return { lines, notes, dates: {}, coversTo: day };
    }
  }
  return { lines, notes, dates: {} };
}

