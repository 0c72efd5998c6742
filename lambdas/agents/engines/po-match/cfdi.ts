/**
 * A Mexican CFDI (Comprobante Fiscal Digital por Internet, versions 3.3 and 4.0, stamped or not) read into a Doc, as
 * the SAT's schema defines it: Comprobante@Total the total, @SubTotal less @Descuento the goods, @Moneda, the
 * Emisor's Nombre the vendor, each Conceptos/Concepto (NoIdentificacion the vendor's item code, Cantidad, ClaveUnidad
 * by UN/ECE Recommendation 20 else Unidad, Descripcion, ValorUnitario, Importe less its Descuento) and the
 * Comprobante's Impuestos (each Traslado a tax, each Retencion a tax withheld). A CFDI has no field for the buyer's
 * order: it is read from the Addenda (an attribute or element named for the order: OrdenCompra, NumeroPedido,
 * PurchaseOrder …), else from the one order every Concepto's description names ("… - OC 1873"). A TipoDeComprobante
 * "E" (egreso) is a credit note: its lines are returns; a payment, payroll or transfer CFDI is no invoice.
 */
import { AgentInputError } from '../port.js';
import { completeLine, type Doc, type RawLine } from './document.js';
import { parseDecimal } from './decimal.js';
import { unitCode } from './units.js';
import { child, children, type XmlNode } from './xml.js';
import { chargeLine, orderOfLines } from './xml-lines.js';

/** The Comprobante of a tree, if it is a CFDI. */
export function cfdiRoot(tree: XmlNode): XmlNode | undefined {
  return tree.name === 'Comprobante' && child(tree, 'Conceptos') !== undefined ? tree : undefined;
}

/** Addenda fields that name the buyer's order, compared without case, accents or punctuation. */
const ORDER_KEYS = new Set(['ordencompra', 'ordendecompra', 'numeroordencompra', 'numerodeordendecompra', 'noordencompra', 'oc',
  'numorden', 'pedido', 'numeropedido', 'nopedido', 'pedidocliente', 'purchaseorder', 'ponumber', 'po', 'referenciapedido', 'folioordencompra']);
const keyOf = (k: string) => k.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^a-z0-9]/g, '');
/** "… - OC 1873", "O.C. 1873", "Orden de compra: 1873", "Pedido 4500123", "PO 1873" in a Concepto's description. */
const ORDER_IN_TEXT = /\b(?:O\.?\s?C\.?|orden\s+de\s+compra|pedido|P\.?O\.?)\s*(?:n[oº°]\.?|#|:)?\s*([A-Z]{0,4}-?\d[\w/-]*)/i;

const TAXES: Record<string, string> = { '001': 'ISR', '002': 'IVA', '003': 'IEPS' };

export function readCfdi(c: XmlNode, field: string): Doc {
  const kind = c.attrs.TipoDeComprobante;
  if (kind !== undefined && kind !== 'I' && kind !== 'E') {
    throw new AgentInputError(field, `a CFDI of TipoDeComprobante "${kind}" (payment, payroll or transfer) is not an invoice`);
  }
  const sign = kind === 'E' ? -1n : 1n;
  const num = (v: string | undefined, what: string): bigint | undefined => {
    if (v === undefined || v.trim() === '') return undefined;
    const n = parseDecimal(v);
    if (n === undefined) throw new AgentInputError(field, `CFDI ${what} "${v.slice(0, 40)}" is not a number`);
    return n;
  };
  const doc: Doc = { lines: [], charges: [], unread: 0 };
  doc.vendor = child(c, 'Emisor')?.attrs.Nombre?.trim() || undefined;
  const rfc = child(c, 'Receptor')?.attrs.Rfc?.trim();
  if (rfc) doc.buyerIds = [{ label: 'Receptor Rfc', value: rfc, cite: child(c, 'Receptor')?.cite }];
  doc.currency = c.attrs.Moneda?.trim() || undefined;
  const total = num(c.attrs.Total, 'Total');
  if (total !== undefined) {
    doc.total = sign * total;
    doc.totalQuote = `Total="${c.attrs.Total}"`;
    doc.totalCite = c.cite;
  }
  const subtotal = num(c.attrs.SubTotal, 'SubTotal');
  const discount = num(c.attrs.Descuento, 'Descuento') ?? 0n;
  const conceptos = children(child(c, 'Conceptos'), 'Concepto');
  let chargedInLines = 0n;
  conceptos.forEach((n, k) => {
    const a = n.attrs;
    const quote = `cfdi:Concepto ${a.NoIdentificacion ?? k + 1}: Cantidad="${a.Cantidad ?? '?'}" ClaveUnidad="${a.ClaveUnidad ?? ''}" ValorUnitario="${a.ValorUnitario ?? '?'}" Importe="${a.Importe ?? '?'}" ${a.Descripcion ?? ''}`.trim();
    const importe = num(a.Importe, 'Importe');
    const lineDiscount = num(a.Descuento, 'Descuento') ?? 0n;
    const description = a.Descripcion?.replace(/\s*[-–]\s*(?:O\.?\s?C\.?|orden\s+de\s+compra|pedido)(?![A-Za-z]).*$/i, '').trim() || a.Descripcion;
    const asCharge = chargeLine(description, undefined);
    if (asCharge && importe !== undefined) {
      chargedInLines += importe - lineDiscount;
      doc.charges.push({ label: `${description} (Concepto ${k + 1})`, amount: sign * (importe - lineDiscount), kind: asCharge, cite: n.cite });
      return;
    }
    const quantity = num(a.Cantidad, 'Cantidad');
    const raw: RawLine = {
      quantity: quantity === undefined ? undefined : sign * quantity,
      // After the Concepto's own discount the price per unit is its net amount ÷ quantity.
      unitPrice: lineDiscount === 0n ? num(a.ValorUnitario, 'ValorUnitario') : undefined,
      amount: importe === undefined ? undefined : sign * (importe - lineDiscount),
      uom: unitCode(a.ClaveUnidad) ?? unitCode(a.Unidad),
      sku: a.NoIdentificacion?.trim() || undefined,
      description,
      quote,
      cites: n.cite ? [n.cite] : undefined,
    };
    doc.lines.push(completeLine(raw, doc.lines.length + 1, field));
  });
  if (subtotal !== undefined) doc.subtotal = sign * (subtotal - discount - chargedInLines);
  const taxes = child(c, 'Impuestos');
  for (const t of children(child(taxes, 'Traslados'), 'Traslado')) {
    const v = num(t.attrs.Importe, 'Traslado Importe');
    const rate = t.attrs.TasaOCuota ? ` ${Number(t.attrs.TasaOCuota) * 100} %` : '';
    if (v !== undefined && v !== 0n) doc.charges.push({ label: `Traslado ${TAXES[t.attrs.Impuesto ?? ''] ?? 'tax'}${rate}`, amount: sign * v, kind: 'tax', cite: t.cite });
  }
  for (const t of children(child(taxes, 'Retenciones'), 'Retencion')) {
    const v = num(t.attrs.Importe, 'Retencion Importe');
    if (v !== undefined && v !== 0n) doc.charges.push({ label: `Retencion ${TAXES[t.attrs.Impuesto ?? ''] ?? 'tax'}`, amount: -sign * v, kind: 'tax', cite: t.cite });
  }
  doc.poNumber = addendaOrder(child(c, 'Addenda')) ?? orderOfLines(conceptos.map((n) => ORDER_IN_TEXT.exec(n.attrs.Descripcion ?? '')?.[1]));
  return doc;
}

/** The order an Addenda names, as an attribute or an element of any supplier's or retailer's addenda. */
function addendaOrder(n: XmlNode | undefined, depth = 0): string | undefined {
  if (!n || depth > 12) return undefined;
  for (const [k, v] of Object.entries(n.attrs)) if (ORDER_KEYS.has(keyOf(k)) && v.trim()) return v.trim();
  if (ORDER_KEYS.has(keyOf(n.name)) && n.text.trim() && n.children.length === 0) return n.text.trim();
  for (const ch of n.children) {
    const hit = addendaOrder(ch, depth + 1);
    if (hit) return hit;
  }
  return undefined;
}
