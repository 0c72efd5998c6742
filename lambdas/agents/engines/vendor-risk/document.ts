/**
 * What kind of document the profile is, and the facts its form carries rather than its sentences: an e-mail's
 * headers (who sent it, from where, when), a form export's cells (question → answer, submission time), the names
 * the document gives the vendor. The detectors then read `prose`: the e-mail's body with its From/Reply-To/Subject/
 * Date lines, the form export as "question: answer" lines, or the text itself.
 */
import { baseDomain, looksAlike, proseOf, readEmail, type EmailFacts } from './email.js';
import { readFormExport, submittedAt, type FormExport } from './form.js';
import { emailDomains, isFreeMail, websiteDomains, type SenderEvidence } from './identity.js';
import type { DocumentDate } from './age.js';
import { firstDate } from './text.js';

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
}

function dayOf(text: string | undefined, source: string): DocumentDate | undefined {
  if (!text) return undefined;
  const d = firstDate(text);
  if (!d) return undefined;
  // A time stamp such as "3/5/2026 9:31:48" could be 3 May or 5 March: the earlier reading makes a company look younger.
  return { day: d.earliest, text: `${source} ${text.trim()}` };
}

export function readDocument(text: string): VendorDocument {
  const email = readEmail(text);
  if (email) {
    const prose = proseOf(text, email);
    return {
      text,
      prose,
      email,
      date: dayOf(email.date, 'Date:'),
      sender: { buyerDomains: email.buyerDomains, spoofing: spoofing(email, text.slice(email.bodyStart)) },
      vendorNames: vendorNames(prose, email),
    };
  }
  const form = readFormExport(text);
  if (form) {
    const at = submittedAt(form);
    return { text, prose: form.prose, form, date: at ? dayOf(at.value, `${at.header}:`) : undefined, vendorNames: vendorNames(form.prose) };
  }
  return { text, prose: text, vendorNames: vendorNames(text) };
}

/**
 * Header evidence that the sender is not the vendor it claims to be: replies routed to another domain, a bounce
 * address or sender on a look-alike of the vendor's domain, failed SPF/DKIM/DMARC. Only the top message has headers;
 * a quoted message's sender is still compared with the vendor's domains named in the body.
 */
function spoofing(email: EmailFacts, body: string): string[] {
  const out: string[] = [];
  const s = email.sender;
  if (!s) return out;
  const buyer = (d: string) => email.buyerDomains.has(baseDomain(d));
  if (s.top) {
    const r = email.replyTo;
    if (r && !buyer(r.domain) && baseDomain(r.domain) !== baseDomain(s.domain)) {
      out.push(`replies go to another domain than the sender's ("Reply-To: ${r.address}")`);
    }
    const a = email.auth;
    if (a.dmarc === 'fail' || ((a.spf === 'fail' || a.spf === 'softfail') && a.dkim !== 'pass')) {
      out.push(`sender authentication fails ("${(a.line ?? '').slice(0, 140)}")`);
    }
  }
  if (!isFreeMail(s.domain)) {
    const sites = websiteDomains(body).map(baseDomain);
    const others = emailDomains(body).map(baseDomain).filter((d) => d !== baseDomain(s.domain));
    const own = [...new Set([...sites, ...others])].filter((d) => !email.buyerDomains.has(d) && !isFreeMail(d));
    if (!sites.includes(baseDomain(s.domain))) {
      const genuine = own.find((d) => looksAlike(s.domain, d));
      if (genuine) out.push(`sender domain ${s.domain} imitates the vendor's domain ${genuine} ("${s.line}")`);
    }
  }
  return out;
}

const NAME_LABEL =
  /^[ \t>*-]*(?:\d+[a-z]?\s+)?(?:(?:company\s+)?legal\s+name|company(?:\s+legal)?(?:\s+name)?|registered\s+name|vendor|supplier|contractor|razon\s+social|business\s+name|trading\s+name|dba|name\s+of\s+[^:\n]*)\s*[:|]\s*(.+)$/gim;

function vendorNames(prose: string, email?: EmailFacts): string[] {
  const names: string[] = [];
  for (const m of prose.matchAll(NAME_LABEL)) names.push(m[1].replace(/\s+-\s+.*$/, ''));
  // A W-9 / W-8 pasted from its PDF puts the name on the line under "1 Name of entity/individual…".
  for (const m of prose.matchAll(/^\s*1\s+name\s+of\s+[^\n]*\n\s*([^\n]+)/gim)) names.push(m[1]);
  if (email?.sender?.name) names.push(email.sender.name);
  return names.map((n) => n.trim()).filter((n) => n.length > 1);
}
