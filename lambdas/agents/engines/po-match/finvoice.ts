/**
 * A Finvoice 3.0 invoice (the Finnish banks' e-invoice, sent through Basware, Maventa, Apix and the banks' operators)
 * read into a Doc, as its schema defines it: SellerPartyDetails/SellerOrganisationName the vendor, InvoiceDetails/
 * OrderIdentifier the buyer's order (else the one order every row's OrderIdentifier names), the currency from the
 * amounts' AmountCurrencyIdentifier, each InvoiceRow (ArticleIdentifier the SKU, BuyerArticleIdentifier a second item
 * number, ArticleName, InvoicedQuantity else DeliveredQuantity with its QuantityUnitCode, UnitPriceAmount per
 * UnitPriceBaseQuantity, RowVatExcludedAmount the row's net after its own RowDiscountPercent, RowIdentifier the order
 * row it bills), InvoiceTotalVatAmount the tax, InvoiceTotalVatExcludedAmount the goods and
 * InvoiceTotalVatIncludedAmount the total. Amounts are written with a decimal comma ("1467,80").
 */
import { AgentInputError } from '../port.js';
import { completeLine, type Doc, type RawLine } from './document.js';
import { unitCode } from './units.js';
import { child, children, decimalOf, textOf, type XmlNode } from './xml.js';
import { chargeLine, orderOfLines } from './xml-lines.js';

/** Freight billed as a row in Finnish words ("Rahti", "Toimituskulut", "Kuljetus"): a charge, never an item. */
const FINNISH_FREIGHT = /^(?:rahti|rahtikulut|toimituskulut|toimitusmaksu|kuljetus(?:kulut|maksu)?|postikulut)\b/i;

/** The Finvoice root of a tree, if it is one. */
export function finvoiceRoot(tree: XmlNode): XmlNode | undefined {
  return tree.name === 'Finvoice' ? tree : undefined;
}

export function readFinvoice(root: XmlNode, field: string): Doc {
  const details = child(root, 'InvoiceDetails');
  if (!details) throw new AgentInputError(field, 'a Finvoice message without InvoiceDetails');
  const doc: Doc = { lines: [], charges: [], unread: 0 };
  doc.vendor = textOf(root, 'SellerPartyDetails', 'SellerOrganisationName');
  const totalNode = child(details, 'InvoiceTotalVatIncludedAmount');
  doc.currency = totalNode?.attrs.AmountCurrencyIdentifier ?? child(details, 'InvoiceTotalVatExcludedAmount')?.attrs.AmountCurrencyIdentifier;
  doc.total = decimalOf(totalNode, 'InvoiceTotalVatIncludedAmount', field);
  if (doc.total !== undefined) {
    doc.totalQuote = `InvoiceTotalVatIncludedAmount ${totalNode!.text.trim()}`;
    doc.totalCite = totalNode!.cite;
  }
  const vatNode = child(details, 'InvoiceTotalVatAmount');
  const vat = decimalOf(vatNode, 'InvoiceTotalVatAmount', field);
  if (vat !== undefined && vat !== 0n) {
    const rate = textOf(details, 'VatSpecificationDetails', 'VatRatePercent');
    doc.charges.push({ label: `InvoiceTotalVatAmount (ALV${rate ? ` ${rate} %` : ''})`, amount: vat, kind: 'tax', cite: vatNode?.cite });
  }
  const rows = children(root, 'InvoiceRow');
  let chargedInRows = 0n;
  rows.forEach((row, k) => {
    const name = textOf(row, 'ArticleName');
    const code = textOf(row, 'ArticleIdentifier');
    const q = child(row, 'InvoicedQuantity') ?? child(row, 'DeliveredQuantity');
    const price = child(row, 'UnitPriceAmount');
    const net = child(row, 'RowVatExcludedAmount');
    const netValue = decimalOf(net, 'RowVatExcludedAmount', field);
    // A row of text only (a note between the items) bills nothing.
    if (!q && !price && netValue === undefined) return;
    const asCharge = FINNISH_FREIGHT.test(name ?? '') ? 'freight' : chargeLine(name, code);
    if (asCharge) {
      const value = netValue ?? 0n;
      chargedInRows += value;
      if (value !== 0n) doc.charges.push({ label: `${name} (InvoiceRow ${k + 1})`, amount: value, kind: asCharge, cite: (net ?? row).cite });
      return;
    }
    const unit = q?.attrs.QuantityUnitCode ?? price?.attrs.UnitPriceUnitCode;
    const quantity = decimalOf(q, q?.name ?? 'DeliveredQuantity', field);
    const priceValue = decimalOf(price, 'UnitPriceAmount', field);
    const base = decimalOf(child(row, 'UnitPriceBaseQuantity'), 'UnitPriceBaseQuantity', field);
    // A row discount (RowDiscountPercent) leaves RowVatExcludedAmount net: the price per unit is that amount ÷ quantity.
    const discounted = decimalOf(child(row, 'RowDiscountPercent'), 'RowDiscountPercent', field) || decimalOf(child(row, 'RowDiscountAmount'), 'RowDiscountAmount', field);
    const raw: RawLine = {
      quantity,
      unitPrice: discounted ? undefined : priceValue,
      amount: netValue,
      priceBase: base !== undefined && base > 0n && !discounted ? base : undefined,
      uom: unit === undefined ? undefined : unitCode(unit) ?? unit.toUpperCase(),
      sku: code,
      altSkus: textOf(row, 'BuyerArticleIdentifier') ? [textOf(row, 'BuyerArticleIdentifier')!] : undefined,
      description: name,
      orderLineRef: textOf(row, 'RowIdentifier'),
      quote: `InvoiceRow ${k + 1}: ${q?.text.trim() ?? '?'}${unit ? ` ${unit}` : ''} × ${price?.text.trim() ?? '?'} = ${net?.text.trim() ?? '?'} ${code ?? ''} ${name ?? ''}`.replace(/\s+/g, ' ').trim(),
    };
    raw.cites = [q, price, net].map((n) => n?.cite).filter((c): c is NonNullable<typeof c> => c !== undefined)
      .filter((c, j, all) => all.findIndex((d) => d.line === c.line) === j);
    doc.lines.push(completeLine(raw, doc.lines.length + 1, field));
  });
  const goods = decimalOf(child(details, 'InvoiceTotalVatExcludedAmount'), 'InvoiceTotalVatExcludedAmount', field);
  if (goods !== undefined) doc.subtotal = goods - chargedInRows;
  doc.poNumber = textOf(details, 'OrderIdentifier') ?? orderOfLines(rows.map((r) => textOf(r, 'OrderIdentifier')));
  return doc;
}
