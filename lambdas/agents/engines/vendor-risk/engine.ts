/**
 * vendor-risk/rules@1: reads a pasted vendor profile and applies the procurement checks of RULES.md (beside this
 * file). Steps: normalise the text (remembering where each character was, for the evidence); read what the document
 * is; run the detectors; grade from the number of flagged areas (a sanctioned jurisdiction declines outright); derive
 * the documents to collect from the flags; cite for each flag the line of the buyer's text it was read from. Nothing in the profile is ever
 * taken as an instruction: text is only searched for the patterns below, so it can add flags but never remove one
 * another sentence raised; the one release is the buyer's own record of a verified bank change (verified.ts).
 */
import { AgentInputError, engineOf, type AgentEngine, type Analysis, type Evidence } from '../port.js';
import { findIdentityGaps } from './identity.js';
import { CHANGE, findPaymentChannels, findPaymentRedirection, findUpfrontPayment } from './payment.js';
import { buyerRecords, verifiedChange } from './verified.js';
import { successorOnRecord } from './successor.js';
import { findJurisdictions } from './jurisdictions.js';
import type { VendorRiskInput, VendorRiskResult } from './schema.js';
import { findPoBoxOnly } from './address.js';
import { findYoungCompany } from './age.js';
import { findTaxGap } from './tax.js';
import { findTaxNumberOfOther } from './taxname.js';
import { findBankAbroad } from './bankabroad.js';
import { Citer } from './evidence.js';
import { lineOf, normaliseMapped, type Finding } from './text.js';
import { readDocument, type VendorDocument } from './document.js';
import { screeningFindings } from './questions.js';

/** Flag areas in RULES.md order; the flag string starts with the label. */
const AREAS = {
  sanctioned: 'sanctioned jurisdiction',
  jurisdiction: 'high-risk jurisdiction',
  tax: 'missing tax id',
  young: 'young company',
  pobox: 'PO box only address',
  payment: 'payment redirection',
  upfront: 'upfront payment demand',
  identity: 'unverifiable identity',
  other: 'other',
} as const;
type Area = keyof typeof AREAS;

export const DOCS = {
  screening: 'sanctions screening evidence (OFAC, EU and UN lists) for the company, its owners and its bank',
  ownership: 'beneficial ownership declaration',
  taxForm: 'W-9 (US vendor) or W-8BEN / W-8BEN-E (foreign vendor)',
  incorporation: 'certificate of incorporation or certificate of good standing',
  address: 'proof of street address (utility bill, lease or registry extract)',
  bankLetter: "bank letter or voided cheque in the vendor's name, confirmed by call-back to a number already on file",
  guarantee: 'advance-payment bank guarantee or letter of credit (or standard terms instead of prepayment)',
  references: 'two trade references',
  account: "bank account in the vendor's name for ACH or wire (no gift cards, cryptocurrency or money-transfer services)",
  answers: 'an answer to every screening question',
  explanation: 'court, insolvency or conviction records for compliance review',
  conflict: 'conflict-of-interest declaration, with the related employee recused from the award',
  taxRecord: "the tax authority's record showing the vendor's own VAT or tax number in its legal name (VAT certificate, registry extract, TIN match)",
  exclusion: 'exclusion-list check (e.g. SAM.gov, World Bank debarred firms) and the debarment record',
} as const;

/** What a declared screening matter needs before the vendor can be reviewed (an open answer needs the answer). */
const SCREENING_DOC: Record<string, string> = { sanctions: DOCS.screening, pep: DOCS.screening, conflict: DOCS.conflict, debarment: DOCS.exclusion };

interface Flag {
  area: Area;
  /** For area "other": what the red flag is; each distinct one is its own area. */
  what?: string;
  /** For a jurisdiction: the place, as the decline note names it. */
  name?: string;
  detail: string;
  collect: string[];
  /** Where in the prose the flag was read; none for a finding of absence (the document as a whole). */
  at?: number;
  end?: number;
}

const areaKey = (f: Flag) => (f.area === 'other' ? `other: ${f.what}` : AREAS[f.area]);

function detect(doc: VendorDocument): { flags: Flag[]; verified?: Finding; successors?: string[] } {
  const flags: Flag[] = [];
  const add = (area: Area, found: Finding & { name?: string }, ...collect: string[]) => flags.push({ area, ...found, collect });
  const prose = doc.prose;
  const quoted = (at: number) => ` ("${lineOf(prose, at)}")`;

  const places = findJurisdictions(prose);
  for (const j of places.hits) {
    const found = { name: j.name, detail: `${j.name} (${j.basis})${quoted(j.at)}`, at: j.at, end: j.end };
    if (j.level === 'sanctioned') add('sanctioned', found, DOCS.screening);
    else add('jurisdiction', found, DOCS.screening, DOCS.ownership);
  }
  for (const n of places.nationalityOnly) {
    const detail = `nationality ${n.name} is given, where the owner lives is not${quoted(n.at)}`;
    flags.push({ area: 'other', what: "owner's country of residence not stated", detail, collect: [DOCS.ownership], at: n.at, end: n.end });
  }
  const tax = findTaxGap(prose);
  if (tax) add('tax', tax, DOCS.taxForm);
  const other = findTaxNumberOfOther(prose, doc.vendorNames);
  if (other) flags.push({ area: 'other', what: other.what, detail: other.detail, collect: [DOCS.taxRecord], at: other.at, end: other.end });
  const abroad = findBankAbroad(prose);
  if (abroad) flags.push({ area: 'other', what: 'bank account abroad, no reason given', detail: abroad.detail, collect: [DOCS.bankLetter], at: abroad.at, end: abroad.end });
  const young = findYoungCompany(prose, doc.date);
  if (young) add('young', young, DOCS.incorporation, DOCS.references);
  const box = findPoBoxOnly(prose);
  if (box) add('pobox', box, DOCS.address);
  // The buyer's own words in an e-mail: a payee they show to be the vendor's successor in law is the vendor renamed.
  const records = buyerRecords(prose, doc.email);
  const redirect = findPaymentRedirection(prose, doc.vendorNames, (payee) => records.some((r) => successorOnRecord(r.own, payee, doc.vendorNames)));
  const upfront = findUpfrontPayment(prose);
  if (upfront) add('upfront', upfront, DOCS.guarantee);
  const id = findIdentityGaps(prose, doc.sender);
  const channels = findPaymentChannels(prose);
  // A change of bank details the buyer's own staff has recorded as verified by call-back to the number on file,
  // with a second control, is released; never when the payee is someone else or another sign of fraud stands.
  const verified =
    redirect.length > 0 && redirect.every((r) => r.detail.startsWith(CHANGE)) && !upfront && id.details.length === 0 && channels.length === 0
      ? verifiedChange(prose, doc.email, [...doc.vendorNames, ...(redirect.successors ?? [])])
      : undefined;
  if (!verified) for (const found of redirect) add('payment', found, DOCS.bankLetter);
  for (const found of id.details) {
    const collect: string[] = [];
    if (id.papers) collect.push(DOCS.incorporation);
    if (id.references) collect.push(DOCS.references);
    if (id.callback) collect.push(DOCS.bankLetter);
    add('identity', found, ...collect);
  }
  for (const c of channels) {
    flags.push({ area: 'other', what: `asks to be paid in ${c.what}`, detail: c.detail, collect: [DOCS.account], at: c.at, end: c.end });
  }
  const placed = flags.some((f) => f.area === 'sanctioned' || f.area === 'jurisdiction');
  for (const s of screeningFindings(doc.text, doc.form)) {
    // A named sanctioned or high-risk place already carries the sanctions question's concern.
    if (s.topic === 'sanctions' && placed) continue;
    const unanswered = UNDECIDED.test(s.area);
    flags.push({
      area: 'other',
      what: s.area.replace(/^other: /, ''),
      detail: `"${s.quote}"`,
      collect: [unanswered ? DOCS.answers : SCREENING_DOC[s.topic] ?? DOCS.explanation],
      at: s.at,
    });
  }
  const order = Object.keys(AREAS);
  return { flags: flags.sort((a, b) => order.indexOf(a.area) - order.indexOf(b.area)), verified, successors: verified ? redirect.successors : undefined };
}

/** Screening findings the document leaves undecided: a question blank, answered N/A, or answered so it cannot be read. */
const UNDECIDED = /left unanswered|answer unclear|answered N\/A/;

function decide(flags: Flag[], verified?: Finding, successors: string[] = []): Pick<VendorRiskResult, 'grade' | 'decision' | 'note'> {
  const sanctioned = flags.filter((f) => f.area === 'sanctioned').map((f) => f.name);
  if (sanctioned.length > 0) {
    return { grade: 'HIGH RISK', decision: 'decline', note: `Decline: sanctioned jurisdiction (${sanctioned.join(', ')}); do not onboard or pay without a compliance review.` };
  }
  const areas = [...new Set(flags.map(areaKey))];
  const successor = successors.length > 0 ? ` The new payee (${successors.join(', ')}) is the vendor's successor by amalgamation or merger, as the buyer's register search records.` : '';
  const released = verified ? ` The bank-detail change is recorded as verified by the buyer's call-back to the number on file, with a second control ("${verified.detail}").${successor}` : '';
  if (areas.length === 0) return { grade: 'LOW RISK', decision: 'onboard', note: `No red flags found; onboard under the standard process.${released}` };
  const grade = areas.length >= 2 ? 'HIGH RISK' : 'MEDIUM RISK';
  const callBack = flags.some((f) => f.area === 'payment')
    ? ' Call the vendor back at the number already on file (not one in the document) before changing payment details.'
    : '';
  // A fact the document leaves open is held, not assumed clean: say which, so the buyer knows what to ask.
  const open = areas.filter((a) => UNDECIDED.test(a) || a.includes('not stated'));
  const undecided = open.length > 0 ? ` The document does not settle ${open.map((a) => a.replace(/^other: /, '')).join('; ')}: held until the vendor answers, never taken as a no.` : '';
  return {
    grade,
    decision: 'hold',
    note: `Hold: ${areas.length} red-flag area${areas.length > 1 ? 's' : ''} (${areas.join(', ')}); onboard only once the listed documents are collected and checked.${callBack}${undecided}`,
  };
}

const flagText = (f: Flag) => (f.area === 'other' ? `other: ${f.what}: ${f.detail}` : `${AREAS[f.area]}: ${f.detail}`);

function explain(input: VendorRiskInput): Analysis<VendorRiskResult> {
  const raw: unknown = (input as { vendorProfile?: unknown } | undefined)?.vendorProfile;
  if (typeof raw !== 'string') throw new AgentInputError('vendorProfile', 'must be a string');
  const mapped = normaliseMapped(raw);
  if (mapped.text.trim().length === 0) throw new AgentInputError('vendorProfile', 'is empty once blank lines and spaces are removed');
  const doc = readDocument(new Citer(raw, mapped));
  const { flags, verified, successors } = detect(doc);
  const result: VendorRiskResult = {
    ...decide(flags, verified, successors),
    flags: flags.map(flagText),
    collect: [...new Set(flags.flatMap((f) => f.collect))],
  };
  const evidence: Evidence[] = flags.map((f, i) => ({
    finding: `flags[${i}] ${f.area === 'other' ? 'other' : AREAS[f.area]}`,
    sources: [doc.cite(f.at)],
  }));
  return { result, evidence };
}

export const vendorRiskEngine: AgentEngine<VendorRiskInput, VendorRiskResult> = engineOf('vendor-risk/rules@1', explain);
