/**
 * A purchase order printed with its linked documents (Passepartout's "Documenti collegati", SAP's PO history, an
 * Exact or Odoo status block) may state that an invoice against it is already registered or paid. An invoice that
 * is that one (the same number), or one for the same money once the order is invoiced, is a re-send — a reminder or a
 * courtesy copy — and paying it would pay twice: a hold naming the row that says so. A registered or paid invoice of
 * another number and amount is only noted (the order may be billed in parts).
 */
import { formatMoney } from './decimal.js';
import type { Finding } from './findings.js';
import { detectDecimal, readNumber } from './number.js';

/** A row naming an invoice document: "Fatt. forn.", "Fattura", "Invoice", "Facture", "Factura", "Faktura", "Rechnung". */
const INVOICE_ROW = /\b(?:fatt(?:ura)?\.?(?:\s+forn(?:itore)?\.?)?|invoice|vendor\s+invoice|ap\s+invoice|facture(?:\s+fournisseur)?|factura(?:\s+proveedor)?|fatura|faktura(?:\s+zakupu)?|rechnung|eingangsrechnung|factuur|inkoopfactuur)\b/i;
/** Its status: registered or posted, paid, cleared. */
const REGISTERED = /\b(?:registrat[ao]|contabilizzat[ao]|registered|posted|recorded|comptabilis[ée]e?|enregistr[ée]e?|contabilizad[ao]|registrad[ao]|zaksi[ęe]gowan[ay]|gebucht|erfasst|geboekt|verwerkt)\b/i;
const PAID = /\b(?:pagat[ao]|saldat[ao]|paid|settled|cleared|pay[ée]e?|r[ée]gl[ée]e?|pagad[ao]|liquidad[ao]|zap[łl]acon[ay]|op[łl]acon[ay]|bezahlt|beglichen|betaald|voldaan)\b/i;
/** The invoice's own number, after its title: "FATTURA N. 815/FE", "Invoice No: INV-1182", "Facture N° 24/F/03361". */
const OWN_NUMBER = /\b(?:fattura|invoice|facture|factura|fatura|faktura(?:\s+vat)?|rechnung|factuur)\s*(?:n[.°o]?\.?|no\.?|nr\.?|number|#|nummer)?\s*[:.]?\s*([A-Z0-9][A-Z0-9/._-]{1,24})/gi;

const key = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, '');

function invoiceNumbers(invoice: string): Set<string> {
  const out = new Set<string>();
  for (const line of invoice.split(/\r\n|\r|\n/)) {
    if (line.length > 400) continue;
    for (const m of line.matchAll(OWN_NUMBER)) if (/\d/.test(m[1]) && !/^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$/.test(m[1])) out.add(key(m[1]));
  }
  return out;
}

export function checkAlreadyPaid(poText: string, invoiceText: string, invoiceTotal: bigint | undefined, problems: Finding[], notes: string[]): void {
  const po = poText.split(/\r\n|\r|\n/);
  const decimal = detectDecimal(poText);
  const own = invoiceNumbers(invoiceText);
  // The order's own payment rows ("Pagamento BON-2024-0611 05/11/2024 3.254,96 Pagata") say it was paid as well.
  const paidRows = po.filter((l) => l.length <= 300 && PAID.test(l) && !INVOICE_ROW.test(l));
  po.forEach((line, i) => {
    if (line.length > 300 || !INVOICE_ROW.test(line) || !(REGISTERED.test(line) || PAID.test(line))) return;
    // A row of a documents table carries its date ("07/10/2024"); a sentence of terms ("invoices are paid in 30 days") none.
    if (!/\b\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b/.test(line)) return;
    const words = line.trim().split(/\s+/);
    const same = words.some((w) => /\d/.test(w) && own.has(key(w)));
    const amounts = words.filter((w) => /\d[.,]\d{2}$/.test(w)).map((w) => readNumber(w, decimal)).filter((a): a is bigint => a !== undefined);
    const sameMoney = invoiceTotal !== undefined && amounts.includes(invoiceTotal);
    const status = PAID.test(line) || paidRows.length > 0 ? 'registered and paid' : 'registered';
    const quote = line.trim().replace(/\s{2,}/g, '  ');
    if (same || sameMoney) {
      problems.push({
        kind: 'already paid',
        text:
          `already invoiced: the purchase order shows ${same ? 'this invoice' : `an invoice for the same ${formatMoney(invoiceTotal!)}`} ${status} against it ('${quote}'` +
          `${paidRows.length > 0 ? `; '${paidRows[0].trim().replace(/\s{2,}/g, '  ')}'` : ''}): the invoice is a re-send, and paying it would pay twice`,
        sources: [{ field: 'purchaseOrder', cites: [{ line: i + 1 }, ...(paidRows.length > 0 ? [{ line: po.indexOf(paidRows[0]) + 1 }] : [])] }, { field: 'invoice' }],
      });
    } else notes.push(`The purchase order shows another invoice ${status} against it ('${quote}'); this one is not that invoice.`);
  });
}
