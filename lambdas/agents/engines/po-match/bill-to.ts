/**
 * The company an invoice is made out to, held against the company that ordered. A purchase order is printed on the
 * buyer's letterhead: the tax and company registration numbers above its vendor block are the buyer's (VAT, NIF, NIP,
 * CIF, CNPJ, SIRET, P.IVA, company number …). An invoice made out to the ordering company repeats one of them; an
 * invoice that names two companies' numbers of one kind (the vendor's and a customer's), none of them the buyer's,
 * is made out to another company — a sister or parent company cannot recover the VAT on it, and the debt is not the
 * buyer's. Numbers are compared by their digits (a French VAT number and SIRET carry the SIREN: either names the
 * company). Where the invoice states too little to tell (only the vendor's own number), nothing is concluded.
 */
import type { Doc } from './document.js';
import type { Finding } from './findings.js';

type Kind = 'tax' | 'company';
interface TaxId {
  kind: Kind;
  label: string;
  value: string;
  digits: string;
  line: number;
}

/** Tax identifiers by their labels in the languages orders are written in. */
const TAX = String.raw`VAT(?:\s*Reg(?:istration)?\.?)?(?:\s*(?:No\.?|Number|ID))?|TVA(?:\s+intracommunautaire)?|N[°o]\s*TVA|USt-?Id(?:Nr)?\.?|BTW(?:-?(?:nr|nummer))?|P\.?\s?IVA|Partita\s+IVA|NIF|CIF|NIP|DI[ČC]|VKN|GSTIN|CNPJ(?:\/CPF)?|RFC|IVA`;
/** Company registrations: SIRET/SIREN, RCS, a company number, KVK, KBO, REGON, KRS, IČO, a Handelsregister entry. */
const COMPANY = String.raw`SIRET|SIREN|RCS(?:\s+[A-ZÀ-Ý][\p{L}-]+)?|Company\s+(?:No\.?|number|reg(?:istration)?\.?\s*no\.?)|Registered\s+in\s+[\p{L}& ]{3,30}?\s+No\.?|KVK|KBO|Ondernemingsnummer|REGON|KRS|I[ČC]O|HRB|Mersis`;
/**
 * A number, with a country or letter prefix ("PT 509 774 126", "B39784512") and check letters after it ("IE
 * 3364519GH"), or a Mexican RFC ("CIL0903176R8").
 */
const VALUE = String.raw`([A-ZÑ&]{3,4}\d{6}[A-Z0-9]{3}|(?:[A-Z]{1,2}\s?)?\d[\d .\/-]{4,22}\d[A-Z]{0,2}(?![\p{L}\d]))`;
// "P.IVA / C.F. 00187420356": the tax code named beside the VAT number is the same number.
const ID = new RegExp(String.raw`(?:^|[^\p{L}])(?:(${TAX})|(${COMPANY}))(?:\s*\/\s*C\.?\s?F\.?)?\s*(?:n[°o]\.?|nr\.?|no\.?)?\s*[:.]?\s*${VALUE}`, 'giu');

export function taxIds(lines: string[], from = 0, to = lines.length): TaxId[] {
  const out: TaxId[] = [];
  for (let i = from; i < Math.min(to, lines.length); i++) {
    if (lines[i].length > 400) continue;
    for (const m of lines[i].matchAll(ID)) {
      const value = m[3].trim();
      const digits = value.replace(/\D/g, '');
      if (digits.length < 7) continue;
      out.push({ kind: m[1] !== undefined ? 'tax' : 'company', label: (m[1] ?? m[2]).trim(), value, digits, line: i + 1 });
    }
  }
  return out;
}

/** One company's numbers: the same digits, or one carrying the other (SIREN inside a SIRET or a French VAT number). */
export function sameCompany(a: TaxId, b: TaxId): boolean {
  if (a.digits === b.digits) return true;
  const [short, long] = a.digits.length <= b.digits.length ? [a.digits, b.digits] : [b.digits, a.digits];
  return short.length >= 9 && long.includes(short);
}

const VENDOR_BLOCK = /^\s*(?:vendor|supplier|fornecedor|fornitore|proveedor|fournisseur|dostawca|leverancier|lieferant|dodavatel|tedarik[çc]i|prestador)\b/i;

/**
 * The buyer's numbers on its own PO: those printed above the vendor block. None when no vendor block is found (the
 * letterhead cannot be told from the vendor's details then).
 */
function buyerIds(po: string[]): { ids: TaxId[]; vendorIds: TaxId[] } {
  const at = po.findIndex((l) => VENDOR_BLOCK.test(l));
  if (at < 0) return { ids: [], vendorIds: [] };
  let end = at + 1;
  while (end < po.length && /^\s{4,}\S/.test(po[end])) end++;
  return { ids: taxIds(po, 0, at), vendorIds: taxIds(po, at, end) };
}

/** A structured invoice's customer number against a printed one: the same letters and digits, less a country prefix. */
function sameId(structured: string, printed: TaxId): boolean {
  const a = structured.toUpperCase().replace(/[^A-Z0-9]/g, '');
  const b = printed.value.toUpperCase().replace(/[^A-Z0-9]/g, '');
  const digits = a.replace(/\D/g, '');
  return a === b || (a.length >= 8 && b.endsWith(a)) || (b.length >= 8 && a.endsWith(b)) || (digits.length >= 9 && sameCompany({ ...printed, digits }, printed));
}

export function checkBillTo(poText: string, invoiceText: string, structured: Doc['buyerIds'], problems: Finding[], notes: string[]): void {
  const po = poText.split(/\r\n|\r|\n/);
  const { ids: buyer, vendorIds } = buyerIds(po);
  if (buyer.length === 0) return;
  // A structured invoice names its customer in a field of its own (CessionarioCommittente, BuyerTradeParty,
  // AccountingCustomerParty, Receptor): compared with the buyer's tax numbers on the PO.
  const taxes = buyer.filter((b) => b.kind === 'tax');
  if (structured && structured.length > 0 && taxes.length > 0) {
    if (structured.some((s) => buyer.some((b) => sameId(s.value, b)))) return;
    problems.push({
      kind: 'bill-to',
      text: `bill-to: the invoice's customer is ${structured.map((s) => `${s.label} ${s.value}`).join(', ')}, not the ordering company (${taxes.map((b) => `${b.label} ${b.value}`).join(', ')} on the purchase order): it is made out to another company; ask the vendor for an invoice in the buyer's name`,
      sources: [{ field: 'invoice', cites: structured.flatMap((s) => (s.cite ? [s.cite] : [])) }, ...taxes.map((b) => ({ field: 'purchaseOrder' as const, cites: [{ line: b.line }] }))],
    });
    return;
  }
  const invoice = taxIds(invoiceText.split(/\r\n|\r|\n/));
  if (invoice.some((i) => buyer.some((b) => sameCompany(b, i)))) return;
  // The invoice's numbers other than the vendor's as the PO states them, per kind: two companies of one kind mean
  // a customer is named, and it is not the buyer.
  const others = invoice.filter((i) => !vendorIds.some((v) => sameCompany(v, i)));
  for (const kind of ['tax', 'company'] as Kind[]) {
    if (!buyer.some((b) => b.kind === kind)) continue;
    const ofKind = others.filter((i) => i.kind === kind);
    const distinct = ofKind.filter((i, k) => !ofKind.slice(0, k).some((j) => sameCompany(i, j)));
    const customer = vendorIds.length > 0 ? distinct : distinct.length >= 2 ? distinct : [];
    if (customer.length === 0) continue;
    const ours = buyer.filter((b) => b.kind === kind);
    const named = customer.map((c) => `${c.label} ${c.value}`).join(', ');
    problems.push({
      kind: 'bill-to',
      text:
        `bill-to: the invoice names ${customer.length > 1 ? 'companies' : 'a customer'} by ${named}, ${customer.length > 1 ? 'none of them' : 'not'} the ordering company ` +
        `(${ours.map((b) => `${b.label} ${b.value}`).join(', ')} on the purchase order): it is made out to another company; ask the vendor for an invoice in the buyer's name`,
      sources: [...customer.map((c) => ({ field: 'invoice' as const, cites: [{ line: c.line }] })), ...ours.map((b) => ({ field: 'purchaseOrder' as const, cites: [{ line: b.line }] }))],
    });
    return;
  }
  notes.push(`The ordering company's ${buyer.map((b) => `${b.label} ${b.value}`).join(', ')} is not on the invoice, which names no other customer number: the bill-to is taken as the buyer.`);
}
