/**
 * An Indian GST e-invoice as the Invoice Registration Portal returns it (schema 1.1, JSON; the signed payload under
 * `SignedInvoice`, or the bare invoice the ERP sends to be registered): SellerDtls/LglNm (else TrdNm) the vendor,
 * RefDtls/ContrDtls[].PORefr the buyer's order, each ItemList entry (SlNo, PrdDesc, Qty, Unit by the GST unit list:
 * NOS pieces, KGS kilograms, BOX, ROL, PAC …; UnitPrice, TotAmt = Qty × UnitPrice, Discount, AssAmt the taxable
 * value after it, its CGST/SGST/IGST/cess amounts), and ValDtls (AssVal the goods, CgstVal/SgstVal/IgstVal/CesVal the
 * tax, OthChrg and RndOffAmt, TotInvVal the total). A service item that bills freight by name (SAC 9965…) is a
 * charge with the GST on it, never goods. The currency is INR unless ExpDtls names another.
 */
import { completeLine, type Charge, type Doc, type RawLine } from './document.js';
import { decimalFromNumber, parseDecimal } from './decimal.js';
import { unitCode } from './units.js';
import { chargeLine } from './xml-lines.js';
import { isObject } from './document.js';
import { AgentInputError } from '../port.js';
import { pathKey, type Cite } from '../text/json-positions.js';

/** GST unit quantity codes (UQC) that are not already UN/ECE or English words units.ts knows. */
const UQC: Record<string, string> = { KGS: 'KG', MTR: 'MTR', LTR: 'LTR', ROL: 'RL', PAC: 'PK', PRS: 'PR', DOZ: 'DZ', BOX: 'BX', BAG: 'BG', CTN: 'CS', SET: 'SET', PCS: 'EA', NOS: 'EA', UNT: 'EA' };

type Obj = Record<string, unknown>;

/** The e-invoice object of a parsed JSON value and its path, if it is one (ItemList beside ValDtls). */
export function gstInvoice(root: unknown): { inv: Obj; path: string[] } | undefined {
  if (!isObject(root)) return undefined;
  const is = (o: unknown): o is Obj => isObject(o) && Array.isArray(o.ItemList) && isObject(o.ValDtls);
  if (is(root)) return { inv: root, path: [] };
  for (const k of ['SignedInvoice', 'data', 'Data', 'invoice']) if (is(root[k])) return { inv: root[k] as Obj, path: [k] };
  return undefined;
}

function amount(v: unknown, what: string, field: string): bigint | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const d = typeof v === 'number' ? decimalFromNumber(v) : typeof v === 'string' ? parseDecimal(v) : undefined;
  if (d === undefined) throw new AgentInputError(field, `${what} ${JSON.stringify(v).slice(0, 40)} is not a number`);
  return d;
}

export function readGstInvoice(found: { inv: Obj; path: string[] }, positions: Map<string, Cite>, field: string): Doc {
  const { inv, path } = found;
  const cite = (...p: (string | number)[]) => positions.get(pathKey([...path, ...p]));
  const doc: Doc = { lines: [], charges: [], unread: 0 };
  const seller = isObject(inv.SellerDtls) ? inv.SellerDtls : {};
  doc.vendor = (typeof seller.LglNm === 'string' && seller.LglNm) || (typeof seller.TrdNm === 'string' && seller.TrdNm) || undefined;
  const exp = isObject(inv.ExpDtls) ? inv.ExpDtls : {};
  doc.currency = typeof exp.ForCur === 'string' && exp.ForCur ? exp.ForCur : 'INR';
  const ref = isObject(inv.RefDtls) ? inv.RefDtls : {};
  const orders = (Array.isArray(ref.ContrDtls) ? ref.ContrDtls : []).map((c) => (isObject(c) && typeof c.PORefr === 'string' ? c.PORefr.trim() : '')).filter(Boolean);
  // Contract lines naming different orders leave the invoice's PO unstated: a hold.
  if (new Set(orders).size === 1) doc.poNumber = orders[0];
  const items = inv.ItemList as unknown[];
  const freight: { label: string; value: bigint; tax: bigint; cite?: Cite }[] = [];
  items.forEach((it, k) => {
    if (!isObject(it)) return;
    const gst = ['CgstAmt', 'SgstAmt', 'IgstAmt', 'CesAmt', 'CesNonAdvlAmt', 'StateCesAmt'].reduce((a, f) => a + (amount(it[f], `ItemList[${k}].${f}`, field) ?? 0n), 0n);
    const desc = typeof it.PrdDesc === 'string' ? it.PrdDesc : undefined;
    const taxable = amount(it.AssAmt, `ItemList[${k}].AssAmt`, field);
    const gross = amount(it.TotAmt, `ItemList[${k}].TotAmt`, field);
    const discount = amount(it.Discount, `ItemList[${k}].Discount`, field) ?? 0n;
    const kind = chargeLine(desc);
    if (kind) {
      freight.push({ label: `${desc} (ItemList SlNo ${String(it.SlNo ?? k + 1)})`, value: taxable ?? gross ?? 0n, tax: gst, cite: cite('ItemList', k, 'PrdDesc') ?? cite('ItemList', k) });
      return;
    }
    const unit = typeof it.Unit === 'string' ? it.Unit.trim().toUpperCase() : undefined;
    const raw: RawLine = {
      quantity: amount(it.Qty, `ItemList[${k}].Qty`, field),
      // After a line discount the taxable value is the line's net: its price per unit is that amount ÷ quantity.
      unitPrice: discount !== 0n ? undefined : amount(it.UnitPrice, `ItemList[${k}].UnitPrice`, field),
      amount: taxable ?? gross,
      uom: unit ? (UQC[unit] ? unitCode(UQC[unit]) ?? UQC[unit] : unitCode(unit)) : undefined,
      description: desc,
      orderLineRef: it.SlNo === undefined ? undefined : String(it.SlNo),
      quote: `ItemList SlNo ${String(it.SlNo ?? k + 1)}: ${String(it.Qty ?? '?')} ${unit ?? ''} × ${String(it.UnitPrice ?? '?')} = ${String(it.AssAmt ?? it.TotAmt ?? '?')} ${desc ?? ''}`.replace(/\s+/g, ' ').trim(),
      cites: [cite('ItemList', k, 'Qty') ?? cite('ItemList', k)].filter((c): c is Cite => c !== undefined),
    };
    doc.lines.push(completeLine(raw, doc.lines.length + 1, field));
  });
  const val = isObject(inv.ValDtls) ? inv.ValDtls : {};
  const charges: Charge[] = [];
  for (const f of freight) {
    if (f.value !== 0n) charges.push({ label: f.label, amount: f.value, kind: 'freight', cite: f.cite, inLines: true });
  }
  for (const [f, label] of [['CgstVal', 'CGST'], ['SgstVal', 'SGST'], ['IgstVal', 'IGST'], ['CesVal', 'cess'], ['StCesVal', 'state cess']] as const) {
    const v = amount(val[f], `ValDtls.${f}`, field);
    if (v !== undefined && v !== 0n) charges.push({ label: `ValDtls.${f} (${label})`, amount: v, kind: 'tax', cite: cite('ValDtls', f) });
  }
  const other = amount(val.OthChrg, 'ValDtls.OthChrg', field);
  if (other !== undefined && other !== 0n) charges.push({ label: 'ValDtls.OthChrg (other charges)', amount: other, kind: 'other', cite: cite('ValDtls', 'OthChrg') });
  const headerDiscount = amount(val.Discount, 'ValDtls.Discount', field);
  if (headerDiscount !== undefined && headerDiscount !== 0n) charges.push({ label: 'ValDtls.Discount', amount: -headerDiscount, kind: 'other', cite: cite('ValDtls', 'Discount') });
  const round = amount(val.RndOffAmt, 'ValDtls.RndOffAmt', field);
  if (round !== undefined && round !== 0n) charges.push({ label: 'ValDtls.RndOffAmt (rounding)', amount: round, kind: 'other', cite: cite('ValDtls', 'RndOffAmt') });
  doc.charges = charges;
  const goods = amount(val.AssVal, 'ValDtls.AssVal', field);
  if (goods !== undefined) doc.subtotal = goods - freight.reduce((a, f) => a + f.value, 0n);
  const total = amount(val.TotInvVal, 'ValDtls.TotInvVal', field);
  if (total !== undefined) {
    doc.total = total;
    doc.totalQuote = `TotInvVal ${String(val.TotInvVal)}`;
    doc.totalCite = cite('ValDtls', 'TotInvVal');
  }
  return doc;
}
