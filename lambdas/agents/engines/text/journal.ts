/**
 * A journal (仕訳帳, a general journal export) given as the books: each row posts one amount from a debit account to
 * a credit account (Money Forward, freee, Yayoi: 借方勘定科目 / 借方補助科目 / 借方金額 … 貸方勘定科目 / 貸方補助科目 /
 * 貸方金額; in English "Debit account", "Credit account"). A practitioner reconciling the bank reads only the rows
 * that post to the bank's account: debited, money came in; credited, money went out. A row between two other accounts
 * (a fee netted off a receivable) never touched the bank. The bank's account is the one named as a bank deposit (普通預金,
 * 当座預金, "Bank", "Cash at bank"), the most posted to of several; with none so named, the account posted to on the
 * most rows. When two tie, the journal cannot say which account is the bank's and is refused.
 */
import { AgentInputError } from '../port.js';
import { normaliseHeader } from './columns.js';
import type { RawRow } from './table.js';

type Side = 'debit' | 'credit';
const SIDE: [Side, RegExp][] = [
  ['debit', /^(?:借方|借|debit|dr|soll)(?: |$)|^(?:借方|借)/],
  ['credit', /^(?:貸方|貸|贷方|credit|cr|haben)(?: |$)|^(?:貸方|貸|贷方)/],
];
const ACCOUNT = /(?:^| )(?:account|acct|konto)(?: |$)|勘定科目|勘定|科目$|科目名|会计科目/;
const SUB = /補助科目|补助|(?:^| )sub ?account(?: |$)|(?:^| )subaccount(?: |$)/;
const AMOUNT = /金額|金额|(?:^| )(?:amount|betrag)(?: |$)/;
/** A bank-deposit account's name: ordinary and current deposits, a bank, cash at bank. */
const BANK_NAME = /普通預金|当座預金|預金|银行存款|(?:^|\s)(?:bank|cash at bank|checking|current account|bank account)(?:\s|$)/i;

interface SideCols { account: number; sub?: number; amount?: number }

/** The journal's columns per side, or undefined when the header is not a two-sided journal's. */
function journalColumns(headers: string[]): { debit: SideCols; credit: SideCols; amount?: number } | undefined {
  const norm = headers.map(normaliseHeader);
  const sides: Partial<Record<Side, Partial<SideCols>>> = {};
  let shared: number | undefined;
  norm.forEach((h, i) => {
    const side = SIDE.find(([, re]) => re.test(h))?.[0];
    if (!side) {
      if (AMOUNT.test(h) && shared === undefined) shared = i;
      return;
    }
    const s = (sides[side] ??= {});
    if (SUB.test(h)) s.sub ??= i;
    else if (ACCOUNT.test(h)) s.account ??= i;
    else if (AMOUNT.test(h)) s.amount ??= i;
  });
  const d = sides.debit;
  const c = sides.credit;
  if (d?.account === undefined || c?.account === undefined) return undefined;
  if ((d.amount === undefined || c.amount === undefined) && shared === undefined) return undefined;
  return { debit: d as SideCols, credit: c as SideCols, amount: shared };
}

/**
 * The journal read down to the bank account's rows, as a table of Date, Reference, Description and a signed Amount
 * (books' side: money in positive); undefined when `headers` are not a two-sided journal's.
 */
export function journalRows(headers: string[], body: RawRow[], field: string): { headers: string[]; rows: RawRow[]; note: string } | undefined {
  const cols = journalColumns(headers);
  if (!cols) return undefined;
  const norm = headers.map(normaliseHeader);
  const cell = (r: RawRow, i: number | undefined) => (i === undefined ? '' : (r.cells[i] ?? '').trim());
  const key = (r: RawRow, s: SideCols) => [cell(r, s.account), cell(r, s.sub)].filter((t) => t !== '').join(' / ');
  const counts = new Map<string, number>();
  for (const r of body) {
    for (const k of new Set([key(r, cols.debit), key(r, cols.credit)])) if (k !== '') counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  if (ranked.length === 0) return undefined;
  // An account named as a bank deposit is the bank's, however few its rows; among several, or none, the most posted to.
  const named = ranked.filter(([k]) => BANK_NAME.test(k));
  const pool = named.length > 0 ? named : ranked;
  const top = pool.filter(([, n]) => n === pool[0][1]);
  if (top.length > 1) {
    throw new AgentInputError(field, `a journal with a debit and a credit account on each row: which account is the bank's cannot be told (${top.map(([k]) => k).join(', ')} are posted to equally often)`);
  }
  const bank = top[0][0];
  const why = named.length > 0 ? 'the bank-deposit account' : 'the account posted to most';
  const dateCol = norm.findIndex((h) => /日付|取引日|日期|(?:^| )date(?: |$)|datum|fecha/.test(h));
  const refCol = norm.findIndex((h) => /^(?:取引no|取引番号|伝票番号|仕訳番号|凭证号|no|entry no|journal no|voucher no|reference|ref)$/.test(h));
  const descCols = norm.map((h, i) => (/摘要|memo|description|narration|内容|備考/.test(h) ? i : -1)).filter((i) => i >= 0);
  const partner = (s: Side) => norm.findIndex((h) => SIDE.find(([x]) => x === s)![1].test(h) && /取引先|partner|contact|vendor|customer/.test(h));
  const rows: RawRow[] = [];
  let other = 0;
  for (const r of body) {
    const inn = key(r, cols.debit) === bank;
    const out = key(r, cols.credit) === bank;
    if (inn === out) {
      if (r.cells.some((c) => c.trim() !== '')) other++;
      continue;
    }
    const own = inn ? cols.debit : cols.credit;
    const counter = inn ? cols.credit : cols.debit;
    const amount = cell(r, own.amount ?? cols.amount);
    const text = [...descCols.map((i) => cell(r, i)), cell(r, counter.account), cell(r, counter.sub), cell(r, partner(inn ? 'credit' : 'debit'))].filter((t) => t !== '').join(' ');
    const signed = amount === '' ? '' : out ? `-${amount.replace(/^[-−]/, '')}` : amount;
    rows.push({ ...r, cells: [cell(r, dateCol), cell(r, refCol), text, signed] });
  }
  const note = `a journal with a debit and a credit account on each row: only the rows posted to ${JSON.stringify(bank)} (${why}${named.length > 1 ? ' posted to most' : ''}) are the bank account's, debited as money in and credited as money out${other > 0 ? `; ${other} row${other === 1 ? '' : 's'} between other accounts did not touch it` : ''}`;
  return { headers: ['Date', 'Reference', 'Description', 'Amount'], rows, note };
}
