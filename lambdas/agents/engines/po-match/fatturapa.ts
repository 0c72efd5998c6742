/**
 * An Italian FatturaPA invoice (FatturaElettronica FPR12 / FPA12, as the Sistema di Interscambio carries it) read
 * into a Doc, as the schema defines it: CedentePrestatore's Denominazione (else Nome and Cognome) the vendor;
 * DatiGeneraliDocumento's Divisa, TipoDocumento (TD04 a credit note: its lines are returns) and
 * ImportoTotaleDocumento the total; DatiOrdineAcquisto/IdDocumento the buyer's order (several naming different
 * orders leave it unstated: a hold); each DettaglioLinee (CodiceArticolo/CodiceValore the item number, Descrizione,
 * Quantita, UnitaMisura, PrezzoUnitario, ScontoMaggiorazione, PrezzoTotale the line's net: after a discount its price
 * per unit is that net ÷ quantity); DatiRiepilogo's Imposta the tax and ImponibileImporto the taxable amount;
 * DatiRitenuta (withholding) less; a document-level ScontoMaggiorazione, DatiCassaPrevidenziale and Arrotondamento
 * charges. One FatturaElettronicaBody per match: a batch of several is refused.
 */
import { AgentInputError } from '../port.js';
import { completeLine, type Doc, type RawLine } from './document.js';
import { unitCode } from './units.js';
import { child, children, decimalOf, textOf, type XmlNode } from './xml.js';
import { chargeLine, orderOfLines } from './xml-lines.js';

/**
 * PrezzoUnitario is written with up to eight decimals ("3.80000000"): trailing zeros past the sixth are dropped, and a
 * price that really has more is rounded half away from zero to the millionth the comparison works in.
 */
function priceOf(n: XmlNode | undefined, field: string): bigint | undefined {
  const t = n?.text.trim();
  if (!t) return undefined;
  const m = /^(-?\d+)\.(\d{7,8})$/.exec(t);
  if (!m) return decimalOf(n, 'PrezzoUnitario', field);
  const scaled = BigInt(`${m[1]}${m[2].padEnd(8, '0')}`);
  const up = (scaled < 0n ? -scaled : scaled) + 50n;
  return (scaled < 0n ? -1n : 1n) * (up / 100n);
}

/** The FatturaPA root of a tree, if it is one. */
export function fatturaPaRoot(tree: XmlNode): XmlNode | undefined {
  return tree.name === 'FatturaElettronica' ? tree : undefined;
}

/** Units as Italian invoices write them: PZ/NR pieces, CF/CONF packs, KG, LT, MT, M2, ORE hours, CT cartons. */
const ITALIAN_UNITS: Record<string, string> = { PZ: 'EA', PZZ: 'EA', NR: 'EA', N: 'EA', NUM: 'EA', CF: 'PK', CONF: 'PK', ORE: 'HUR', H: 'HUR', LT: 'LTR', MT: 'MTR', ML: 'MTR', CT: 'CS', SC: 'BX' };
const unitOf = (u: string | undefined) => (u === undefined ? undefined : ITALIAN_UNITS[u.toUpperCase().replace(/\.$/, '')] ?? unitCode(u));

export function readFatturaPa(root: XmlNode, field: string): Doc {
  const bodies = children(root, 'FatturaElettronicaBody');
  if (bodies.length !== 1) throw new AgentInputError(field, `a FatturaPA file with ${bodies.length} invoice bodies: send one invoice per match`);
  const body = bodies[0];
  const doc: Doc = { lines: [], charges: [], unread: 0 };
  const seller = child(root, 'FatturaElettronicaHeader', 'CedentePrestatore', 'DatiAnagrafici', 'Anagrafica');
  doc.vendor = textOf(seller, 'Denominazione') ?? ([textOf(seller, 'Nome'), textOf(seller, 'Cognome')].filter(Boolean).join(' ') || undefined);
  const buyer = child(root, 'FatturaElettronicaHeader', 'CessionarioCommittente', 'DatiAnagrafici');
  const vat = child(buyer, 'IdFiscaleIVA');
  doc.buyerIds = [
    ...(vat && textOf(vat, 'IdCodice') ? [{ label: 'CessionarioCommittente IdFiscaleIVA', value: `${textOf(vat, 'IdPaese') ?? ''}${textOf(vat, 'IdCodice')}`, cite: child(vat, 'IdCodice')?.cite }] : []),
    ...(textOf(buyer, 'CodiceFiscale') ? [{ label: 'CessionarioCommittente CodiceFiscale', value: textOf(buyer, 'CodiceFiscale')!, cite: child(buyer, 'CodiceFiscale')?.cite }] : []),
  ];
  const general = child(body, 'DatiGenerali', 'DatiGeneraliDocumento');
  doc.currency = textOf(general, 'Divisa');
  const kind = textOf(general, 'TipoDocumento');
  const sign = kind === 'TD04' ? -1n : 1n;
  const signed = (v: bigint | undefined) => (v === undefined ? undefined : sign * v);
  const totalNode = child(general, 'ImportoTotaleDocumento');
  const total = decimalOf(totalNode, 'ImportoTotaleDocumento', field);
  if (total !== undefined) {
    doc.total = sign * total;
    doc.totalQuote = `ImportoTotaleDocumento ${totalNode!.text.trim()}`;
    doc.totalCite = totalNode!.cite;
  }
  doc.poNumber = orderOfLines(children(child(body, 'DatiGenerali'), 'DatiOrdineAcquisto').map((o) => textOf(o, 'IdDocumento')));
  const goods = child(body, 'DatiBeniServizi');
  let taxable = 0n;
  let stated = false;
  for (const r of children(goods, 'DatiRiepilogo')) {
    const tax = child(r, 'Imposta');
    const value = decimalOf(tax, 'Imposta', field);
    const rate = textOf(r, 'AliquotaIVA');
    const base = decimalOf(child(r, 'ImponibileImporto'), 'ImponibileImporto', field);
    if (base !== undefined) [taxable, stated] = [taxable + base, true];
    // Split payment (EsigibilitaIVA S): the buyer pays the VAT to the State, so the vendor is paid without it.
    if (value !== undefined && value !== 0n && textOf(r, 'EsigibilitaIVA') !== 'S') doc.charges.push({ label: `DatiRiepilogo IVA${rate ? ` ${rate} %` : ''}`, amount: sign * value, kind: 'tax', cite: tax?.cite ?? r.cite });
  }
  for (const w of children(child(body, 'DatiGenerali', 'DatiGeneraliDocumento'), 'DatiRitenuta')) {
    const amount = child(w, 'ImportoRitenuta');
    const value = decimalOf(amount, 'ImportoRitenuta', field);
    if (value !== undefined && value !== 0n) doc.charges.push({ label: `DatiRitenuta ${textOf(w, 'TipoRitenuta') ?? ''}`.trim(), amount: -sign * value, kind: 'tax', cite: amount?.cite });
  }
  for (const c of children(general, 'DatiCassaPrevidenziale')) {
    const amount = child(c, 'ImportoContributoCassa');
    const value = decimalOf(amount, 'ImportoContributoCassa', field);
    if (value !== undefined && value !== 0n) doc.charges.push({ label: `DatiCassaPrevidenziale ${textOf(c, 'TipoCassa') ?? ''}`.trim(), amount: sign * value, kind: 'other', cite: amount?.cite });
  }
  for (const s of children(general, 'ScontoMaggiorazione')) {
    const amount = child(s, 'Importo');
    const value = decimalOf(amount, 'ScontoMaggiorazione Importo', field);
    if (value !== undefined && value !== 0n) doc.charges.push({ label: `ScontoMaggiorazione ${textOf(s, 'Tipo') ?? ''}`.trim(), amount: sign * (textOf(s, 'Tipo') === 'SC' ? -value : value), kind: 'other', cite: amount?.cite });
  }
  let chargedInLines = 0n;
  children(goods, 'DettaglioLinee').forEach((l, k) => {
    const q = child(l, 'Quantita');
    const price = child(l, 'PrezzoUnitario');
    const net = child(l, 'PrezzoTotale');
    const description = textOf(l, 'Descrizione');
    const codes = children(l, 'CodiceArticolo').map((c) => textOf(c, 'CodiceValore')).filter((c): c is string => c !== undefined);
    const amount = decimalOf(net, 'PrezzoTotale', field);
    const unit = textOf(l, 'UnitaMisura');
    const quote = `DettaglioLinee ${textOf(l, 'NumeroLinea') ?? k + 1}: ${q?.text.trim() ?? ''} ${unit ?? ''} × ${price?.text.trim() ?? '?'} = ${net?.text.trim() ?? '?'} ${description ?? ''}`.replace(/\s+/g, ' ').trim();
    // A line of freight or an accessory charge (TipoCessionePrestazione AC, "Spese di trasporto") is a charge the
    // PO's terms judge; a discount, premium or rebate line (SC, PR, AB) lowers the goods.
    const asCharge = chargeLine(description, codes[0]) ?? (textOf(l, 'TipoCessionePrestazione') === 'AC' ? 'other' : undefined);
    if (asCharge) {
      chargedInLines += amount ?? 0n;
      if (amount !== undefined && amount !== 0n) doc.charges.push({ label: `${description ?? 'charge'} (DettaglioLinee ${k + 1})`, amount: sign * amount, kind: asCharge, cite: (net ?? l).cite, inLines: true });
      return;
    }
    const quantity = decimalOf(q, 'Quantita', field);
    const gross = priceOf(price, field);
    const discounted = children(l, 'ScontoMaggiorazione').length > 0;
    const raw: RawLine = {
      quantity: quantity === undefined ? undefined : sign * quantity,
      // After the line's own discounts the price per unit is PrezzoTotale ÷ quantity (no gross price is compared).
      unitPrice: discounted && amount !== undefined ? undefined : gross,
      amount: signed(amount),
      uom: unitOf(unit),
      sku: codes[0],
      altSkus: codes.length > 1 ? codes.slice(1) : undefined,
      description,
      orderLineRef: textOf(l, 'NumeroLinea'),
      quote,
    };
    raw.cites = [q, price, net].map((n) => n?.cite).filter((c): c is NonNullable<typeof c> => c !== undefined)
      .filter((c, j, all) => all.findIndex((d) => d.line === c.line) === j);
    doc.lines.push(completeLine(raw, doc.lines.length + 1, field));
  });
  if (stated) doc.subtotal = sign * (taxable - chargedInLines);
  return doc;
}
