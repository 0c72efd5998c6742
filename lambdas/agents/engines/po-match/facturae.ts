/**
 * A Spanish Facturae 3.2.x invoice (the format of FACe and of Spanish B2B e-invoicing) read into a Doc, as the
 * schema defines it: Parties/SellerParty (LegalEntity/CorporateName, else the Individual's names) the vendor,
 * InvoiceIssueData/InvoiceCurrencyCode, each Items/InvoiceLine (ArticleCode, ItemDescription, Quantity,
 * UnitOfMeasure by the Facturae code list, UnitPriceWithoutTax, TotalCost = quantity × price, GrossAmount after the
 * line's own DiscountsAndRebates and Charges), TaxesOutputs and TaxesWithheld, GeneralDiscounts and
 * GeneralSurcharges, and InvoiceTotals (InvoiceTotal the total, TotalGrossAmount the lines). Facturae has no header
 * field for the buyer's order: ReceiverTransactionReference on each line is the buyer's reference (the PO), the one
 * order every line that states one names.
 */
import { AgentInputError } from '../port.js';
import { completeLine, chargeKind, type Doc, type RawLine } from './document.js';
import { unitCode } from './units.js';
import { child, children, decimalOf, textOf, type XmlNode } from './xml.js';
import { chargeLine, itemCodeOf, orderOfLines } from './xml-lines.js';

/** The Facturae UnitOfMeasure code list (01 units … 36 kWh) as UN/ECE codes the comparison knows. */
const FACTURAE_UNITS: Record<string, string> = {
  '01': 'EA', '02': 'HUR', '03': 'KG', '04': 'LTR', '06': 'BX', '07': 'DS', '08': 'BA', '09': 'JY', '10': 'BG', '11': 'CO',
  '12': 'BO', '13': 'CI', '14': 'TETRABRIK', '15': 'CLT', '16': 'CMT', '17': 'BI', '18': 'DZ', '19': 'CS', '20': 'DJ',
  '21': 'GRM', '22': 'KMT', '23': 'CAN', '24': 'BH', '25': 'MTR', '26': 'MMT', '27': 'SIXPACK', '28': 'PK', '29': 'PORTION',
  '30': 'RL', '31': 'ENVELOPE', '32': 'TB', '33': 'MTQ', '34': 'SEC', '35': 'WTT', '36': 'KWH',
};

/** The Facturae root of a tree, if it is one. */
export function facturaeRoot(tree: XmlNode): XmlNode | undefined {
  return tree.name === 'Facturae' ? tree : undefined;
}

export function readFacturae(root: XmlNode, field: string): Doc {
  const invoices = children(child(root, 'Invoices'), 'Invoice');
  if (invoices.length !== 1) throw new AgentInputError(field, `a Facturae file with ${invoices.length} invoices: send one invoice per match`);
  const inv = invoices[0];
  const doc: Doc = { lines: [], charges: [], unread: 0 };
  const seller = child(root, 'Parties', 'SellerParty');
  const person = child(seller, 'Individual');
  doc.vendor = textOf(seller, 'LegalEntity', 'CorporateName') ??
    ([textOf(person, 'Name'), textOf(person, 'FirstSurname'), textOf(person, 'SecondSurname')].filter(Boolean).join(' ') || undefined);
  doc.currency = textOf(inv, 'InvoiceIssueData', 'InvoiceCurrencyCode') ?? textOf(root, 'FileHeader', 'Batch', 'InvoiceCurrencyCode');
  const totals = child(inv, 'InvoiceTotals');
  const totalNode = child(totals, 'InvoiceTotal');
  doc.total = decimalOf(totalNode, 'InvoiceTotal', field);
  if (doc.total !== undefined) {
    doc.totalQuote = `InvoiceTotal ${totalNode!.text.trim()}`;
    doc.totalCite = totalNode!.cite;
  }
  for (const tax of children(child(inv, 'TaxesOutputs'), 'Tax')) {
    const amount = child(tax, 'TaxAmount', 'TotalAmount');
    const value = decimalOf(amount, 'TaxAmount', field);
    const rate = textOf(tax, 'TaxRate');
    if (value !== undefined && value !== 0n) doc.charges.push({ label: `TaxesOutputs ${taxName(textOf(tax, 'TaxTypeCode'))}${rate ? ` ${rate} %` : ''}`, amount: value, kind: 'tax', cite: amount?.cite ?? tax.cite });
  }
  // Withholdings (IRPF) lower what is paid; they are the buyer's tax, not the vendor's charge.
  for (const tax of children(child(inv, 'TaxesWithheld'), 'Tax')) {
    const amount = child(tax, 'TaxAmount', 'TotalAmount');
    const value = decimalOf(amount, 'TaxesWithheld TaxAmount', field);
    if (value !== undefined && value !== 0n) doc.charges.push({ label: `TaxesWithheld ${taxName(textOf(tax, 'TaxTypeCode'))}`, amount: -value, kind: 'tax', cite: amount?.cite ?? tax.cite });
  }
  for (const d of children(child(inv, 'GeneralDiscounts'), 'Discount')) {
    const value = decimalOf(child(d, 'DiscountAmount'), 'DiscountAmount', field);
    if (value !== undefined && value !== 0n) doc.charges.push({ label: textOf(d, 'DiscountReason') ?? 'discount', amount: -value, kind: 'other', cite: child(d, 'DiscountAmount')?.cite });
  }
  for (const c of children(child(inv, 'GeneralSurcharges'), 'Charge')) {
    const value = decimalOf(child(c, 'ChargeAmount'), 'ChargeAmount', field);
    const reason = textOf(c, 'ChargeReason') ?? 'surcharge';
    if (value !== undefined && value !== 0n) doc.charges.push({ label: reason, amount: value, kind: chargeKind(reason), cite: child(c, 'ChargeAmount')?.cite });
  }
  const lines = children(child(inv, 'Items'), 'InvoiceLine');
  let chargedInLines = 0n;
  lines.forEach((l, k) => {
    const q = child(l, 'Quantity');
    const price = child(l, 'UnitPriceWithoutTax');
    const gross = child(l, 'GrossAmount');
    const cost = child(l, 'TotalCost');
    const description = textOf(l, 'ItemDescription');
    const grossValue = decimalOf(gross, 'GrossAmount', field);
    const costValue = decimalOf(cost, 'TotalCost', field);
    const unit = textOf(l, 'UnitOfMeasure');
    const quote = `InvoiceLine ${k + 1}: ${q?.text.trim() ?? '?'} ${unit ? `(unit ${unit}) ` : ''}× ${price?.text.trim() ?? '?'} = ${(gross ?? cost)?.text.trim() ?? '?'} ${description ?? ''}`.replace(/\s+/g, ' ').trim();
    // A freight or packing line ("Portes y embalaje") is a charge the PO's terms judge, never an item.
    const asCharge = chargeLine(description, textOf(l, 'ArticleCode'));
    if (asCharge) {
      const value = grossValue ?? costValue ?? 0n;
      chargedInLines += value;
      if (value !== 0n) doc.charges.push({ label: `${description} (invoice line ${k + 1})`, amount: value, kind: asCharge, cite: (gross ?? cost ?? l).cite });
      return;
    }
    // The line's net is GrossAmount: after its own discounts and charges the price per unit is that amount ÷ quantity.
    const adjusted = grossValue !== undefined && costValue !== undefined && grossValue !== costValue;
    const raw: RawLine = {
      quantity: decimalOf(q, 'Quantity', field),
      unitPrice: adjusted ? undefined : decimalOf(price, 'UnitPriceWithoutTax', field),
      amount: grossValue ?? costValue,
      uom: unit === undefined ? undefined : FACTURAE_UNITS[unit.padStart(2, '0')] ? unitCode(FACTURAE_UNITS[unit.padStart(2, '0')]) ?? FACTURAE_UNITS[unit.padStart(2, '0')] : undefined,
      sku: textOf(l, 'ArticleCode'),
      description,
      orderLineRef: textOf(l, 'SequenceNumber'),
      quote,
    };
    const code = raw.sku === undefined ? itemCodeOf(description) : undefined;
    if (code) raw.altSkus = [code];
    raw.cites = [q, price, gross ?? cost].map((n) => n?.cite).filter((c): c is NonNullable<typeof c> => c !== undefined)
      .filter((c, j, all) => all.findIndex((d) => d.line === c.line) === j);
    doc.lines.push(completeLine(raw, doc.lines.length + 1, field));
  });
  const goods = decimalOf(child(totals, 'TotalGrossAmount'), 'TotalGrossAmount', field);
  if (goods !== undefined) doc.subtotal = goods - chargedInLines;
  doc.poNumber = orderOfLines(lines.map((l) => textOf(l, 'ReceiverTransactionReference')));
  return doc;
}

/** Facturae TaxTypeCode: 01 IVA, 02 IPSI, 03 IGIC, 04 IRPF … */
function taxName(code: string | undefined): string {
  return ({ '01': 'IVA', '02': 'IPSI', '03': 'IGIC', '04': 'IRPF' } as Record<string, string>)[code ?? ''] ?? 'tax';
}
