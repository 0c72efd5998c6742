/**
 * Supplier forms in the languages of continental Europe, read as a practitioner reads them: a question answered
 * "Non" / "Nein" / "Nee" is answered no, even when its list of places trails off ("Cuba...)", "Syrien usw.)"); the
 * company's age is its registration date, not the date its register extract was printed; a French SIREN / SIRET /
 * TVA intracommunautaire set is a tax id on file. Each fixture is a clean company; a risky twin beside it keeps the
 * reading from letting risk through.
 */
import { describe, expect, it } from 'vitest';
import { vendorRiskEngine } from '../../../lambdas/agents/engines/vendor-risk/engine.js';

const run = (vendorProfile: string) => vendorRiskEngine.analyse({ vendorProfile });

/** A clean SARL from Bordeaux as a buyer's portal exports it, one field a row (Rubrique;Champ;Valeur). */
const FR_ROWS = [
  'Rubrique;Champ;Valeur',
  'Fiche;Date de soumission;03/09/2026',
  'Société;Dénomination;TONNELLERIE GARAUD',
  'Société;Forme juridique;SARL',
  'Société;SIREN;523 118 904',
  'Société;SIRET;523 118 904 00019',
  'Société;Numéro de TVA intracommunautaire;FR 61 523 118 904',
  "Société;Date d'immatriculation;14/05/2004 (RCS Bordeaux)",
  'Adresse;Siège;8 allée des Chais, 33000 Bordeaux, France',
  'Banque;Titulaire;TONNELLERIE GARAUD SARL',
  'Banque;IBAN;FR76 1005 7190 0100 0201 4450 137',
  'Finances;Acompte;Non',
];
const frForm = (...extra: string[]) => [...FR_ROWS, ...extra].join('\n');

describe('a screening question answered in French, German or Dutch', () => {
  it('reads "Non" after a question whose list of places trails off as a clean no', () => {
    const r = run(frForm('Conformité;Avez-vous des activités dans un pays sous embargo (Russie, Iran, Cuba, Syrie...) ?;Non'));
    expect(r.decision).toBe('onboard');
  });

  it('still declines the same question answered "Oui"', () => {
    const r = run(frForm('Conformité;Avez-vous des activités dans un pays sous embargo (Russie, Iran, Cuba, Syrie...) ?;Oui'));
    expect(r.decision).toBe('decline');
  });

  it('does not take "Non, mais ..." for a no', () => {
    const r = run(frForm('Conformité;Avez-vous des clients en Iran ou en Syrie ?;Non, mais notre filiale livre Téhéran'));
    expect(r.decision).toBe('decline');
  });

  it('reads a German "Nein" and a Dutch "Nee" after a list ending in "etc.)"', () => {
    const de = 'Lieferantenstammblatt\nFirma: Hollmann Stanztechnik GmbH\nGegründet: 1988\nUSt-IdNr.: DE 813 442 907\nAnschrift: Industriestraße 12, 58509 Lüdenscheid\nBestehen Geschäfte mit Russland, Iran, Kuba, Syrien etc.)? Nein\n';
    expect(run(de).decision).toBe('onboard');
    const nl = 'Leveranciersformulier\nBedrijf: Van Dijk Verpakkingen B.V.\nOpgericht: 1996\nBTW-nummer: NL812334455B01\nAdres: Havenweg 4, 3542 AD Utrecht\nLevert u aan Rusland, Iran of Syrië (enz.) ? Nee\n';
    expect(run(nl).decision).toBe('onboard');
  });

  it('keeps a German "Ja" a yes', () => {
    const de = 'Firma: Hollmann Stanztechnik GmbH\nGegründet: 1988\nUSt-IdNr.: DE813442907\nAnschrift: Industriestraße 12, 58509 Lüdenscheid\nBestehen Geschäfte mit Russland, Iran, Kuba, Syrien etc.)? Ja\n';
    expect(run(de).decision).toBe('decline');
  });
});

describe("the company's age is its registration date, not the date of a register extract", () => {
  const profile = (...lines: string[]) =>
    ['Fiche fournisseur', 'Raison sociale : Boulangerie Industrielle Perrin SAS', 'SIREN : 389 552 017', 'Adresse : 22 avenue Jean Jaurès, 21000 Dijon, France', 'Date de soumission : 02/11/2026', ...lines].join('\n');

  it('reads an old registration beside a Kbis extract printed last week', () => {
    const r = run(profile("Date d'immatriculation : 11/09/1992", 'Extrait Kbis : fourni, daté du 28/10/2026'));
    expect(r.flags.filter((f) => f.startsWith('young company'))).toEqual([]);
  });

  it('does not take a certificate copy printed this month for the founding date', () => {
    const r = run(['Vendor: Aldgate Print Finishers Ltd', 'Company number: 04417732', 'Certificate of incorporation: copy printed 2026-10-20', 'Incorporated 14 March 2003', 'VAT: GB 402 7711 58', 'Address: 7 Cable Street, London E1 8JG'].join('\n'));
    expect(r.flags.filter((f) => f.startsWith('young company'))).toEqual([]);
  });

  it('still flags a company registered this year, whatever its extract says', () => {
    const r = run(profile("Date d'immatriculation : 02/06/2026", 'Extrait Kbis : fourni, daté du 28/10/2026'));
    expect(r.flags.some((f) => f.startsWith('young company'))).toBe(true);
    expect(r.decision).not.toBe('onboard');
  });

  it('reads a German founding date ("Gründungsdatum") and flags a young GmbH', () => {
    const r = run('Firma: Kessler Robotik GmbH\nGründungsdatum: 01.08.2026\nHandelsregisterauszug vom 20.10.2026\nUSt-IdNr.: DE 331 207 118\nAnschrift: Hafenstraße 3, 28217 Bremen\nDatum: 02.11.2026');
    expect(r.flags.some((f) => f.startsWith('young company'))).toBe(true);
  });
});

describe('a French SIREN / SIRET / TVA intracommunautaire is a tax id on file', () => {
  const base = ['Raison sociale : Menuiserie Lagarde SARL', "Date d'immatriculation : 1999", 'Adresse : 3 rue du Moulin, 44000 Nantes, France'];
  const taxFlags = (...lines: string[]) => run([...base, ...lines].join('\n')).flags.filter((f) => f.startsWith('missing tax id'));

  it('reads a TVA number written in groups', () => {
    expect(taxFlags('N° TVA intracommunautaire : FR 27 431 552 908')).toEqual([]);
  });

  it('reads a field-per-row export whose TVA cell follows a semicolon', () => {
    expect(run(frForm()).flags.filter((f) => f.startsWith('missing tax id'))).toEqual([]);
  });

  it('still flags a form whose TVA number is to follow', () => {
    expect(taxFlags('N° TVA intracommunautaire : à suivre', 'TVA : pending')).not.toEqual([]);
  });
});

describe('a German "Nein" to the prepayment and sanctions-list questions', () => {
  const form = (prepay: string, listed: string) =>
    ['Lieferantenstammblatt', 'Firma: Hollmann Stanztechnik GmbH', 'Gegründet: 1988', 'USt-IdNr.: DE 813 442 907', 'Anschrift: Industriestraße 12, 58509 Lüdenscheid', 'Zahlungsbedingungen: 30 Tage netto', `Vorauszahlung erforderlich? ${prepay}`, `Stehen Sie oder Ihre Gesellschafter auf einer Sanktionsliste? ${listed}`].join('\n');

  it('is a clean no: onboard', () => {
    expect(run(form('Nein', 'Nein')).decision).toBe('onboard');
  });

  it('a "Ja" to either is not', () => {
    expect(run(form('Ja, 100 % bei Auftragserteilung', 'Nein')).decision).not.toBe('onboard');
    expect(run(form('Nein', 'Ja')).decision).not.toBe('onboard');
  });
});
