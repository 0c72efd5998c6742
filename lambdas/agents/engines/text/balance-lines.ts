/**
 * The cells that say a row of a bank or ledger table is a balance, not a transaction (ledger.ts reads them).
 */
/**
 * A cell that opens with one of these is a balance line, not a transaction (whatever else the row holds): the
 * opening and closing balances as ledgers and banks print them, Nordic ones too (Inngående/Utgående balanse, Ingående
 * saldo, Primo/Ultimo as the whole cell), the Spanish, Portuguese and Italian ones ledgers localised there print (Saldo de
 * apertura/de cierre, Saldo de abertura/de fechamento, Saldo di apertura/di chiusura), and in other scripts (前月繰越 brought forward, 期初余额, входящий остаток).
 */
export const BALANCE_LINE =
  /^(?:(?:opening|closing|beginning|ending|starting|previous|new|history|account)\s+balance|balance\s+(?:brought|carried|b\/?f|c\/?f)|balance\s+forward|(?:brought|carried)\s+forward|b\/fwd|c\/fwd|o\/bal|anfangssaldo|endsaldo|schlusssaldo|kontostand|alter\s+kontostand|neuer\s+kontostand|solde\b|saldo\s+(?:oud|nieuw|begin|eind|iniziale|finale|contabile|inicial|final|anterior|precedente|disponibile|poczatkowe|koncowe)|saldo\s+(?:de|di|da|do|al|a)\s+(?:apertura|abertura|cierre|chiusura|fechamento|encerramento)\b|stan\s+(?:poczatkowy|koncowy)|bilans\s+(?:otwarcia|zamkniecia)|report\s+total|(?:inn|ut|in|ud|ind)gaende\s+(?:balanse|balans|saldo)|(?:ancien|nouveau)\s+solde|beginsaldo|eindsaldo|saldovortrag|alkusaldo|loppusaldo|(?:primo|ultimo)(?:\s*saldo)?$|saldo\s+(?:primo|ultimo)$|saldo(?:\s+(?:do|del)\s+dia)?$|前月繰越|前期繰越|前年度繰越|繰越残高|次月繰越|期首残高|月初残高|前日残高|期初余额|期末余额|上期结转|上年结转|전기이월|전월이월|이월잔액|входящий\s+остаток|исходящий\s+остаток|сальдо\s+на\s+(?:начало|конец))/i;
/** Accents dropped; a cell printed letter-spaced ("S A L D O", as Banco do Brasil prints its closing balance) read as its word. */
export const plain = (s: string) => {
  const t = s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').trim();
  return /^(?:\p{L} ){2,}\p{L}$/u.test(t) ? t.replace(/ /g, '') : t;
};
