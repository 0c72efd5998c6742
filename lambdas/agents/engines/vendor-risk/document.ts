/**
 * What kind of document the profile is, and the facts its form carries rather than its sentences: an e-mail's
 * headers (who sent it, from where, when), a form export's cells (question → answer, submission time), the names
 * the document gives the vendor. The detectors then read `prose`: the e-mail's body with its From/Reply-To/Subject/
 * Date lines, the form export as "question: answer" lines, or the text itself.
 */
import { baseDomain, looksAlike, proseOf, readEmail, type EmailFacts } from './email.js';
import { readFormExport, submittedAt, type FormExport } from './form.js';
import { bareMailDomains, emailDomains, isFreeMail, websiteDomains, type SenderEvidence } from './identity.js';
import type { DocumentDate } from './age.js';
import type { EvidenceSource } from '../port.js';
import type { Citer } from './evidence.js';
import { firstDate, type Finding } from './text.js';
import { vendorNames } from './names.js';

export interface VendorDocument {
  /** The whole normalised profile. */
  text: string;
  /** What the prose detectors read (see above). */
  prose: string;
  email?: EmailFacts;
  form?: FormExport;
  /** The document's own date, when its form carries one. */
  date?: DocumentDate;
  sender?: SenderEvidence;
  /** Every name the document gives the vendor (legal, trading, sender), for comparing payees. */
  vendorNames: string[];
  /** Where offset `at` of `prose` was read in the buyer's text; without `at`, the document as a whole. */
  cite(at?: number): EvidenceSource;
}

function dayOf(text: string | undefined, source: string): DocumentDate | undefined {
  if (!text) return undefined;
  const d = firstDate(text);
  if (!d) return undefined;
  // A time stamp such as "3/5/2026 9:31:48" could be 3 May or 5 March: the earlier reading makes a company look younger.
  return { day: d.earliest, text: `${source} ${text.trim()}` };
}

export function readDocument(citer: Citer): VendorDocument {
  const text = citer.text;
  // The prose of an e-mail or of plain text keeps the text's offsets: a finding's offset is the text's.
  // The line (or the sentence of a long line) is what a reviewer checks, as the flag's own quote is.
  const cite = (at?: number) => (at === undefined ? citer.first() : citer.at(at));
  const email = readEmail(text);
  if (email) {
    const prose = proseOf(text, email);
    return {
      text,
      prose,
      email,
      date: dayOf(email.date, 'Date:'),
      sender: { buyerDomains: email.buyerDomains, spoofing: spoofing(email, text) },
      vendorNames: vendorNames(prose, email),
      cite,
    };
  }
  const form = readFormExport(text);
  if (form) {
    const at = submittedAt(form);
    return {
      text,
      prose: form.prose,
      form,
      date: at ? dayOf(at.value, `${at.header}:`) : undefined,
      vendorNames: vendorNames(form.prose),
      cite: (at?: number) => (at === undefined ? citer.first() : citeCell(form, citer, at)),
    };
  }
  return { text, prose: text, vendorNames: vendorNames(text), cite };
}

/**
 * A form export's prose is rebuilt as "header: value" lines, so a finding there is found again in the buyer's text:
 * a header in the header row, a value from its response row on.
 */
function citeCell(form: FormExport, citer: Citer, at: number): EvidenceSource {
  const cell = form.cells.findLast((c) => c.at <= at);
  if (!cell) return citer.first();
  const text = citer.text;
  if (at < cell.valueAt) {
    const header = cell.header.slice(0, 80);
    const i = text.indexOf(header);
    return i >= 0 ? citer.span(i, i + header.length) : citer.first();
  }
  const lineEnd = form.prose.indexOf('\n', at);
  // The cell's answer as a whole (up to its first line break), found again from its response row on.
  const fragment = form.prose.slice(cell.valueAt, Math.min(cell.valueAt + 120, lineEnd < 0 ? form.prose.length : lineEnd)).trim();
  const rowAt = citer.offsetOfLine(cell.line);
  const words = fragment.split(/\s+/).filter((w) => w.length > 2).sort((a, b) => b.length - a.length);
  for (const wanted of [fragment, fragment.slice(0, 40), cell.value.split('\n')[0].slice(0, 60), words[0] ?? '']) {
    const i = wanted.trim() === '' ? -1 : text.indexOf(wanted, rowAt);
    if (i >= 0) return citer.span(i, i + wanted.length);
  }
  return citer.at(rowAt);
}

/**
 * Header evidence that the sender is not the vendor it claims to be: replies routed to another domain, a bounce
 * address or sender on a look-alike of the vendor's domain, failed SPF/DKIM/DMARC. Only the top message has headers;
 * a quoted message's sender is still compared with the vendor's domains named in the body.
 */
function spoofing(email: EmailFacts, text: string): Finding[] {
  const out: Finding[] = [];
  const s = email.sender;
  if (!s) return out;
  const body = text.slice(email.bodyStart);
  const head = text.slice(0, email.bodyStart);
  const headerAt = (name: string) => Math.max(0, head.search(new RegExp(`^${name}:`, 'im')));
  const buyer = (d: string) => email.buyerDomains.has(baseDomain(d));
  if (s.top) {
    const r = email.replyTo;
    if (r && !buyer(r.domain) && baseDomain(r.domain) !== baseDomain(s.domain)) {
      out.push({ detail: `replies go to another domain than the sender's ("Reply-To: ${r.address}")`, at: headerAt('reply-to') });
    }
    const a = email.auth;
    if (a.dmarc === 'fail' || ((a.spf === 'fail' || a.spf === 'softfail') && a.dkim !== 'pass')) {
      out.push({ detail: `sender authentication fails ("${(a.line ?? '').slice(0, 140)}")`, at: headerAt('authentication-results') });
    }
  }
  if (!isFreeMail(s.domain)) {
    const sites = websiteDomains(body).map(baseDomain);
    const others = [...emailDomains(body), ...bareMailDomains(body)].map(baseDomain).filter((d) => d !== baseDomain(s.domain));
    const own = [...new Set([...sites, ...others])].filter((d) => !email.buyerDomains.has(d) && !isFreeMail(d));
    // A sender that names its own domain as its website may still be the imitation: a look-alike that reads the
    // same as another domain the document gives the vendor (wrocIaw for wroclaw, supp1y for supply) is flagged
    // whatever the signature says, since the signature is the sender's own; only a name with a word added
    // (acme-billing.com beside acme.com) is released by the sender's own website.
    const named = sites.includes(baseDomain(s.domain));
    {
      const genuine = own.find((d) => looksAlike(s.domain, d, named));
      const at = s.top ? headerAt('from') : email.bodyStart + Math.max(0, body.indexOf(s.line));
      if (genuine) out.push({ detail: `sender domain ${s.domain} imitates the vendor's domain ${genuine} ("${s.line}")`, at });
    }
  }
  return out;
}
