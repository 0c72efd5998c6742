/**
 * What is not a place (RULES.md rule 1): a listed name written as part of a person's name — Kuba (a Jakub in
 * Polish), Kenya, Siria, Monaco — or a product named for a style (a Moscow mule mug). And what still is: the same
 * word put as the country (after a place preposition, in a Country field, in a list of places), a name that an
 * organisation word makes a company's or an office's. Each fixture is the clean company of vendor-risk-company.ts
 * with lines added.
 */
import { describe, expect, it } from 'vitest';
import { vendorRiskEngine } from '../../../lambdas/agents/engines/vendor-risk/engine.js';
import { COMPANY_LINES } from '../../support/vendor-risk-company.js';

const COMPANY = COMPANY_LINES.join('\n');
const run = (...lines: string[]) => vendorRiskEngine.analyse({ vendorProfile: [COMPANY, ...lines].join('\n') });
const places = (...lines: string[]) => run(...lines).flags.filter((f) => /jurisdiction: /.test(f)).map((f) => f.replace(/ \(.*$/s, ''));

describe('a person named with a listed word is no place', () => {
  it.each([
    ['a contact field with first name and surname', ['Contact person: Kuba Wiśniewski, Key Account Manager']],
    ['a German contact field', ['Ansprechpartner:  Kuba Lewandowski   Tel. +49 89 1234 567']],
    ['a title before the name', ['Our account manager, Mrs. Kenya Okafor, will visit in March.']],
    ['a greeting that the name closes', ['', 'Hi Kuba,', 'thanks for the form.']],
    ['a Polish greeting', ['', 'Cześć Kuba! Formularz w załączniku.']],
    ['a surname field', ['Last name: Monaco', 'First name: Giulia']],
    ['a signatory', ['Signed by: Siria Colombo (Director)']],
    ['a name under a closing', ['', 'Best regards,', 'Kuba Zieliński', 'Procurement']],
    ['a display name whose mailbox is made of the surname', ['From the desk of Kenya Mbatha <k.mbatha@northwind.example>']],
    ['a product named for a style', ['We supply copper Moscow mule mugs, Russian dolls and Cuban link chains to gift shops.']],
  ])('%s', (_name, lines) => {
    expect(places(...lines)).toEqual([]);
  });

  it('once the word is a person, the same word elsewhere is that person: a mailbox, a sentence', () => {
    const lines = ['Contact person: Kuba Wiśniewski', 'Email: kuba.wisniewski@northwind.example', 'Kuba will send the signed forms on Monday.'];
    expect(places(...lines)).toEqual([]);
    expect(run(...lines).decision).toBe('onboard');
  });

  it('a surname that only begins with the word is another word', () => {
    expect(places('Contact: Anna Kubacka', 'Owner: Luis Cubas')).toEqual([]);
  });
});

describe('the same word put as a place still counts', () => {
  it('after a place preposition, in a Country field, or in a list of places, beside a person of that name', () => {
    expect(places('Ansprechpartner: Kuba Lewandowski', 'Wir liefern auch nach Kuba.')).toEqual(['sanctioned jurisdiction: Cuba']);
    expect(places('Contact person: Kuba Wiśniewski', 'Second warehouse country: Kuba')).toEqual(['sanctioned jurisdiction: Cuba']);
    expect(places('Contact person: Kuba Wiśniewski', 'Export markets: Mexico, Kuba, Peru')).toEqual(['sanctioned jurisdiction: Cuba']);
  });

  it('an organisation word makes the name an office’s or a company’s, not a person’s', () => {
    expect(places('Contact: Iran Office')).toEqual(['sanctioned jurisdiction: Iran']);
    expect(places('Owner: Iran Holding Co.')).toEqual(['sanctioned jurisdiction: Iran']);
    expect(places('Sender: Iran Air <info@iranair.example>')).toEqual(['sanctioned jurisdiction: Iran']);
    expect(places('', 'Dear Kenya team, our new depot opens next month.')).toEqual(['high-risk jurisdiction: Kenya']);
  });

  it('a greeting that the name does not close, and a product from the place, are places', () => {
    expect(places('Shipped from Moscow by rail.')).toEqual(['high-risk jurisdiction: Russia']);
    expect(places('We import Cuban cigars for hotel lounges.')).toEqual(['sanctioned jurisdiction: Cuba']);
  });
});

describe('a field that holds a person holds a whole name', () => {
  it('one word under Owner or Contact is not read as a person; under Last name it is', () => {
    expect(places('Owner: Iran')).toEqual(['sanctioned jurisdiction: Iran']);
    expect(places('Contact: Kuba')).toEqual(['sanctioned jurisdiction: Cuba']);
    expect(places('Nachname: Monaco', 'Vorname: Luca')).toEqual([]);
  });
});

describe('only the words people bear as names', () => {
  it('an e-mail display name is a person when the word is a name people bear; a capital never is', () => {
    expect(places('From: Kuba Zając <kuba@zajac-logistyka.example>')).toEqual([]);
    expect(places('From: Tehran Steel <sales@tehransteel.example>')).toEqual(['sanctioned jurisdiction: Iran']);
    expect(places('Contact person: Donetsk Rudenko')).toEqual(['sanctioned jurisdiction: Donetsk region']);
    expect(places('Sender: Iran Air <info@iranair.example>')).toEqual(['sanctioned jurisdiction: Iran']);
  });
});
