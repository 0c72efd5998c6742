/**
 * Rule 2's denials (RULES.md "Denials"), on the forms vendors actually fill in: a supplier onboarding form, a due
 * diligence questionnaire with tick boxes, an email with a sanctions representation, a form tool's CSV export.
 * Each fixture states the same clean company as vendor-risk.test.ts's CLEAN (EIN 12-3456789, W-9 on file,
 * incorporated 2014, 400 Market St, bank verified by call-back, net 30), so the only question is whether the
 * sanctions answer is read as the denial it is. Before this rule each clean form below was declined.
 */
import { describe, expect, it } from 'vitest';
import { vendorRiskEngine } from '../../../lambdas/agents/engines/vendor-risk/engine.js';
import { COMPANY_LINES } from '../../support/vendor-risk-company.js';
import { resultSchema } from '../../../lambdas/agents/engines/vendor-risk/schema.js';

/**
 * A jurisdiction flag quotes the line it was read from; these tests assert the place it names (the quote itself is
 * asserted in vendor-risk-evidence.test.ts).
 */
const placeOnly = (flag: string) => (/^(?:sanctioned|high-risk) jurisdiction: /.test(flag) ? flag.replace(/ \("[^]*"\)$/, '') : flag);

const run = (vendorProfile: string) => {
  const result = vendorRiskEngine.analyse({ vendorProfile });
  expect(resultSchema.parse(result)).toEqual(result);
  return { ...result, flags: result.flags.map(placeOnly) };
};

const LOW = { grade: 'LOW RISK', decision: 'onboard', flags: [], collect: [], note: 'No red flags found; onboard under the standard process.' };
const sanctioned = (...names: string[]) => names.map((n) => `sanctioned jurisdiction: ${n} (comprehensive sanctions)`);

const COMPANY = COMPANY_LINES.join('\n');
const CLEAN =
  'Vendor: Northwind Traders LLC. Incorporated in Delaware, 2014. EIN 12-3456789. W-9 on file. Address: 400 Market St, Suite 200, San Francisco CA. Bank: Chase, account verified by call-back. Terms: net 30.';

describe('rule 2 denials: a supplier onboarding form that answers no is onboarded', () => {
  it('key: value form, the countries listed in the question and the answer "No"', () => {
    // Worked by hand: the five sanctioned names sit in the label "Operations in sanctioned countries (...)", a plain
    // list up to its colon, and the answer after the colon is "No": all five denied. "None" and "N/A" answer lines
    // that name no country. Everything else is COMPANY: no flag → LOW RISK, onboard. (Before: declined for five.)
    const form = [
      'SUPPLIER ONBOARDING FORM',
      COMPANY,
      '',
      'SECTION 5 - SANCTIONS',
      'Operations in sanctioned countries (Iran, North Korea, Syria, Cuba, Crimea): No',
      'Owners or directors resident in a sanctioned country: None',
      'Sanctioned-country exposure: N/A',
    ].join('\n');
    expect(run(form)).toEqual(LOW);
  });

  it('the same form answered "Yes - Syria" is declined for Syria', () => {
    // "Yes" is no denial; "Syria" after it is stated presence; the label names no country. Syria only → decline.
    // (Held before too: a guard that answers are not over-read.)
    const form = `${COMPANY}\nOperations in sanctioned countries: Yes — Syria`;
    expect(run(form)).toMatchObject({ grade: 'HIGH RISK', decision: 'decline', flags: sanctioned('Syria') });
  });

  it('a "No" that turns ("No - but a distributor in Damascus") denies nothing', () => {
    // The answer is not a clean no (it turns at "but"), so the label's Iran and Syria stand; Damascus is Syria
    // stated after the turn. Iran and Syria → decline. (Guard: held before too.)
    const form = `${COMPANY}\nOperations in sanctioned countries (Iran, Syria): No - but a distributor in Damascus.`;
    expect(run(form).flags).toEqual(sanctioned('Iran', 'Syria'));
  });

  it('a country given as a value is not a question: "Country: Iran" then "Sanctions exposure: No"', () => {
    // Iran is the value of the key "Country", not part of the label that "No" answers → Iran stands. (Guard.)
    expect(run(`${COMPANY}\nCountry: Iran Sanctions exposure: No`).flags).toEqual(sanctioned('Iran'));
  });
});

describe('rule 2 denials: a due diligence questionnaire with tick boxes', () => {
  const question =
    '7. Does your company, or any of its owners, have operations, customers or suppliers in Iran, North Korea, Syria, Cuba or the Crimea region?';

  it('☐ Yes ☒ No on the line below the question: onboard', () => {
    // The question ends in "?" with nothing after it, so its answer is the next line; the ticked box (☒) labels
    // "No" → every country in the question is denied. Q8 names no country. No flag → LOW. (Before: declined.)
    const form = [COMPANY, question, '   ☐ Yes   ☒ No', '8. Is your company 50% or more owned by a sanctioned person?  [ ] Yes  [x] No'].join('\n');
    expect(run(form)).toEqual(LOW);
  });

  it('[ ] Yes [x] No on the same line, and "Yes [ ] No [x]" with the boxes after their labels: onboard', () => {
    // Box first: the label after [x] is "No". Label first: the label before [x] is "No". Both deny.
    expect(run(`${COMPANY}\n${question} [ ] Yes [x] No`)).toEqual(LOW);
    expect(run(`${COMPANY}\n${question} Yes [ ] No [x]`)).toEqual(LOW);
  });

  it('☒ Yes ☐ No is declined for every country the question names', () => {
    // The ticked box labels "Yes": no denial, so the question's five names stand → decline. (Guard.)
    const form = [COMPANY, question, '   ☒ Yes   ☐ No'].join('\n');
    expect(run(form)).toMatchObject({
      grade: 'HIGH RISK',
      decision: 'decline',
      flags: sanctioned('Iran', 'North Korea', 'Syria', 'Cuba', 'Crimea'),
    });
  });

  it('both boxes ticked, or "No, but our parent company does", deny nothing', () => {
    // Two ticks: no single answer. "No, but …" turns: not a clean no. Iran stands in both. (Guard.)
    expect(run(`${COMPANY}\nOperations in Iran? [x] Yes [x] No`).flags).toEqual(sanctioned('Iran'));
    expect(run(`${COMPANY}\nDo you have operations in Iran? No, but our parent company does.`).flags).toEqual(sanctioned('Iran'));
  });
});

describe('rule 2 denials: a sanctions representation in prose (email or cover letter)', () => {
  it('"no operations, owners or customers in Iran, North Korea, Syria, Cuba or Russia": onboard', () => {
    // One denial ("no") governs the coordinated head "operations, owners or customers" (its comma series is closed by
    // "or") and, through "in", the whole list: five names denied, Russia included. (Before: Iran was read as
    // presence, because of the commas before "in", and the vendor declined.)
    expect(run(`${CLEAN}\nWe have no operations, owners or customers in Iran, North Korea, Syria, Cuba or Russia.`)).toEqual(LOW);
  });

  it('"None of our owners are located in Iran, Cuba or Syria": onboard', () => {
    // "None" is a denial; "of our owners are located in" is six words, no pronoun subject, no break → the list is
    // denied. (Before: all three declined.)
    expect(run(`${CLEAN}\nNone of our owners are located in Iran, Cuba or Syria.`)).toEqual(LOW);
  });

  it("a sanctions clause in the OFAC style, with an aside and \"the Crimea, Donetsk or Luhansk regions\": onboard", () => {
    // "do not, directly or indirectly, have any operations, owners, or customers in": the aside between commas is
    // skipped; the list after "in" runs to "regions of Ukraine" ("the" before a name is part of the list). Seven
    // names denied. (Before: Cuba and Crimea were declined.)
    const rep =
      'We do not, directly or indirectly, have any operations, owners, or customers in Cuba, Iran, North Korea, Syria, or the Crimea, Donetsk or Luhansk regions of Ukraine.';
    expect(run(`${CLEAN}\n${rep}`)).toEqual(LOW);
  });

  it('"no sanctioned-country exposure (Iran, North Korea, Syria, Cuba)" and "…, e.g. Iran, Syria or Cuba": onboard', () => {
    // A bracket or "e.g." opens the list of examples the denial covers.
    expect(run(`${CLEAN}\nNo sanctioned-country exposure (Iran, North Korea, Syria, Cuba).`)).toEqual(LOW);
    expect(run(`${CLEAN}\nWe have no sanctioned-country exposure, e.g. Iran, Syria or Cuba.`)).toEqual(LOW);
  });
});

describe('rule 2 denials: a scope ends where the statement does', () => {
  it('"no operations in Iran except a sales office in Tehran" is presence in Iran', () => {
    // "except" after a denial ends it and what follows is stated: Tehran → Iran. (Before: onboarded, because
    // "except" was itself read as a denial.)
    expect(run(`${CLEAN}\nWe have no operations in Iran except a sales office in Tehran.`)).toMatchObject({
      decision: 'decline',
      flags: sanctioned('Iran'),
    });
  });

  it('"We sell worldwide except Iran, Syria and Cuba" excludes them (no denial before "except")', () => {
    // "except" with no denial before it opens one. (Held before too: kept while "except" after a denial changed.)
    expect(run(`${CLEAN}\nWe sell worldwide except Iran, Syria and Cuba.`)).toEqual(LOW);
  });

  it('a sentence end, "but", "only" and a new subject each end the denial', () => {
    // "." ends it: Syria stated. "but": Damascus stated. ", only in Russia": Russia stated (high-risk, hold).
    // "and we have one in Cuba": a new subject, Cuba stated. (Guards: each held before too.)
    expect(run(`${CLEAN}\nWe have no offices in Iran. We have a warehouse in Syria.`).flags).toEqual(sanctioned('Syria'));
    expect(run(`${CLEAN}\nWe have no operations in Iran, but our parent company is in Damascus.`).flags).toEqual(sanctioned('Syria'));
    expect(run(`${CLEAN}\nWe have no customers in Iran, only in Russia.`).flags).toEqual(['high-risk jurisdiction: Russia (sanctions exposure)']);
    expect(run(`${CLEAN}\nWe don't have customers in Iran or Syria and we have one in Cuba.`).flags).toEqual(sanctioned('Cuba'));
  });

  it('"No litigation, offices in London and Tehran": a comma series never closed by and/or is not one list', () => {
    // "no" denies litigation; after the comma "offices in …" is a new statement. Tehran → Iran. (Before: onboarded.)
    expect(run(`${CLEAN}\nNo litigation, offices in London and Tehran.`).flags).toEqual(sanctioned('Iran'));
  });

  it('denied trouble or denied leaving is presence: "no issues operating in Iran", "never stopped selling to Cuba"', () => {
    expect(run(`${CLEAN}\nWe have no issues operating in Iran.`).flags).toEqual(sanctioned('Iran'));
    expect(run(`${CLEAN}\nWe never stopped selling to Cuba.`).flags).toEqual(sanctioned('Cuba'));
  });
});

describe('rule 2 denials: a form tool export (questions as the header row)', () => {
  it('a Google Forms response CSV whose sanctions column answers "No": onboard', () => {
    // The header cell "Do you, or any of your owners, have operations in Iran, North Korea, Syria or Cuba?" is
    // column 5; the one response row has "No" there → the four names are denied. The row carries the EIN, a W-9
    // "Yes", the street address, 2014, a verified bank and net 30 → no other flag. (Before: declined for four.)
    const csv = [
      'Timestamp,Legal name,EIN,W-9 on file,"Do you, or any of your owners, have operations in Iran, North Korea, Syria or Cuba?",Registered address,Year incorporated,Bank,Terms',
      '2026-10-02 09:14:33,Northwind Traders LLC,12-3456789,Yes,No,"400 Market St, Suite 200, San Francisco, CA 94105",2014,"Chase, verified by call-back",Net 30',
    ].join('\n');
    expect(run(csv)).toEqual(LOW);
  });

  it('the same question pasted from a spreadsheet as Question / Answer cells (tab-separated): onboard', () => {
    // The tab closes the question cell; the answer cell is "No".
    expect(run(`${CLEAN}\nOperations in sanctioned countries (Iran, North Korea, Syria, Cuba)\tNo`)).toEqual(LOW);
  });

  it('a vendor list whose Country column says Iran is a value, not a question', () => {
    // The cell holding Iran holds nothing else: it is data, so the "No" beside it answers nothing about Iran.
    // (Guard: held before too.)
    expect(run(`${CLEAN}\nVendor\tCountry\tSanctioned\nNorthwind\tIran\tNo`).flags).toEqual(sanctioned('Iran'));
  });
});
