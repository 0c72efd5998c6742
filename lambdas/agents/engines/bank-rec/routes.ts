/**
 * One payment booked by two routes. A supplier paid by card is often booked twice: once as a card expense (from the
 * card or bank feed) and again when the supplier's bill is marked paid against the bank account, days or weeks
 * later. The bank shows the charge once. A bookkeeper reads the bill payment left over as the repeat of the card
 * charge — not a second payment still to clear — when the two entries agree in everything but the route: the same
 * amount, the same supplier named, within a month, one saying it was a card charge and the other that it paid a bill
 * or invoice, and no invoice number quoted on both that differs. Two card charges of the same amount stay two
 * purchases (a second subscription seat, a second ticket); a bill paid after the statement ends may not have cleared
 * yet, so the statement must run past it.
 */
import { MATCH_DAYS, tokensOf, type Line } from './match.js';

/** Within this many days the bill payment and the card charge are read as one payment (a month's statement). */
export const ROUTE_DAYS = 31;

const plain = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
const word = (words: string) => new RegExp(`(?:^|[^a-z])(?:${words})(?=[^a-z]|$)`);
/** A card charge, in the words card feeds and ledgers use (a bank export's CARD_PAYMENT type too). */
const CARD = word('card|cards|card payment|carte|cartes|karte|kartenzahlung|tarjeta|cartao|kaart|kortbetaling|kortkop|karta|visa|mastercard|amex|maestro');
/** A bill or invoice … */
const BILL = word('bill|bills|invoice|invoices|factura|facturas|facture|factures|rechnung|rechnungen|fattura|fatture|faktura|factuur|fatura|fv');
/** … said to be paid (a QuickBooks "Bill Pmt" too). */
const PAID = word('paid|pay|payment|pmt|pago|pagada|pagado|pagamento|paga|pagata|paiement|reglement|regle|bezahlt|zahlung|beglichen|betaling|betaald|zaplata|zaplacono|oplacono');

const isCard = (...texts: (string | undefined)[]) => texts.some((t) => t !== undefined && CARD.test(plain(t)));
const isBillPaid = (text: string) => BILL.test(plain(text)) && PAID.test(plain(text));
/** The words that say the route name no supplier. */
const ROUTE_WORDS = new Set(['bill', 'bills', 'paid', 'invoice', 'card', 'payment']);

/**
 * The matched book entry a leftover book entry repeats by another route, or undefined. `partner` gives each matched
 * entry the bank line it matched; `bankLast` is the last day the bank statement covers.
 */
export function routeTwin(l: Line, partner: Map<Line, Line>, bankLast: number | undefined): Line | undefined {
  if (l.side !== 'books' || l.amountCents >= 0n || bankLast === undefined || bankLast < l.date + MATCH_DAYS) return undefined;
  const lCard = isCard(l.description);
  const lBill = !lCard && isBillPaid(l.description);
  if (!lCard && !lBill) return undefined;
  const quoted = tokensOf(l.description);
  const twins = [...partner.keys()].filter((m) => {
    if (m.side !== 'books' || m.amountCents !== l.amountCents || Math.abs(m.date - l.date) > ROUTE_DAYS) return false;
    if (!m.names.some((w) => !ROUTE_WORDS.has(w) && l.names.includes(w))) return false;
    const bank = partner.get(m);
    // The other route: a bill paid against the card charge the bank shows, or a card charge against a bill paid.
    const routed = lBill ? isCard(m.description, bank?.description, bank?.source) : !isCard(m.description) && isBillPaid(m.description);
    if (!routed) return false;
    const theirs = tokensOf(m.description);
    return quoted.length === 0 || theirs.length === 0 || quoted.some((t) => theirs.includes(t));
  });
  return twins.sort((a, b) => Math.abs(a.date - l.date) - Math.abs(b.date - l.date) || a.row - b.row)[0];
}

/** What the detail says of such a repeat. */
export const routeNote = (l: Line, original: Line) => {
  const days = Math.abs(l.date - original.date);
  return ` (the same amount and supplier, ${days} day${days === 1 ? '' : 's'} apart, one booked as a card charge and the other as a bill paid: the bank shows the charge once, so the card paid the bill)`;
};
