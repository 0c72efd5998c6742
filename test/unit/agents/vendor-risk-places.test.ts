/**
 * Where a vendor, its sites, subcontractors or bank are, read in every form a portal or a form writes it (RULES.md
 * rule 2): an ISO code in a Country field or column, an IBAN's or a SWIFT code's country, a city or region of a
 * sanctioned country named without the country, the country in the form's own language. And what is not a place:
 * a street named after a country, a country named only in a denial that a German or French form hard-wraps.
 * Each fixture is the clean company of vendor-risk-company.ts with one fact changed.
 */
import { describe, expect, it } from 'vitest';
import { vendorRiskEngine } from '../../../lambdas/agents/engines/vendor-risk/engine.js';
import { codeMentions } from '../../../lambdas/agents/engines/vendor-risk/codes.js';
import { COMPANY_LINES } from '../../support/vendor-risk-company.js';

const COMPANY = COMPANY_LINES.join('\n');
const run = (vendorProfile: string) => vendorRiskEngine.analyse({ vendorProfile });
const places = (vendorProfile: string) => run(vendorProfile).flags.filter((f) => /jurisdiction: /.test(f)).map((f) => f.replace(/ \(.*$/s, ''));

describe('a country written as a code, where forms write it', () => {
  it('a plant whose Country column holds KP, the answer No to the sanctions question notwithstanding', () => {
    // A supplier portal's sites table: the second plant is in country KP (North Korea). The compliance question
    // answered "No" names no place, so it denies nothing: the stated site governs → decline.
    const profile = [
      COMPANY,
      '',
      'Sites',
      '  Site        Activity           City                      Country',
      '  Main        Assembly           Qingdao                   CN',
      '  Site B      Sewing (partner)   Industrial zone 4         KP',
      '',
      '1. Are any of your sites or subcontractors located in a sanctioned country?     No',
    ].join('\n');
    expect(places(profile)).toEqual(['sanctioned jurisdiction: North Korea']);
    expect(run(profile).decision).toBe('decline');
    // The flag cites the row that holds the code, as typed.
    const { evidence } = vendorRiskEngine.explain({ vendorProfile: profile });
    expect(evidence).toEqual([
      { finding: 'flags[0] sanctioned jurisdiction', sources: [{ field: 'vendorProfile', line: COMPANY_LINES.length + 5, quote: 'Site B      Sewing (partner)   Industrial zone 4         KP' }] },
    ]);
  });

  it('a Country field holding an ISO code (alpha-2 or alpha-3), a tab-separated table, an IBAN and a SWIFT code', () => {
    expect(places(`${COMPANY}\nBranch office: 14 Vali-e-Asr Ave\nCountry: IR`)).toEqual(['sanctioned jurisdiction: Iran']);
    expect(places(`${COMPANY}\nWarehouse country code ...... SYR`)).toEqual(['sanctioned jurisdiction: Syria']);
    expect(places(`${COMPANY}\n\nName\tRole\tCountry\nDepot\tStorage\tCU`)).toEqual(['sanctioned jurisdiction: Cuba']);
    expect(places(`${COMPANY}\nRemit to IBAN: IR82 0540 1026 8002 0817 9090 02`)).toEqual(['sanctioned jurisdiction: Iran']);
    expect(places(`${COMPANY}\nCorrespondent bank SWIFT: SABRRUMM`)).toEqual(['high-risk jurisdiction: Russia']);
  });

  it('two capitals elsewhere say nothing: a word in capitals, a code under another label, a nationality, a US state', () => {
    // "CU" in a materials list, "IR" as a sensor type, "Nationality: IR" (a person's passport places no one, and
    // the engine then only asks where the owner lives), "State: CA", a SWIFT code of a listed-free country.
    expect(codeMentions('Material: CU\nSensor: IR\nState: CA\nSWIFT: CHASUS33\nCountry: DE')).toEqual([]);
    expect(codeMentions('Owner nationality: IR')).toEqual([]);
    expect(run(`${COMPANY}\nConductor material: CU (copper), sensor type IR`).decision).toBe('onboard');
  });
});

describe('a city or region of a sanctioned country, named without the country', () => {
  it.each([
    ['a North Korean economic zone and province', 'Subcontract plant: Rajin-Sonbong zone, North Hamgyong', 'North Korea'],
    ['an Iranian city', 'Second workshop: Industrial Estate 3, Tabriz', 'Iran'],
    ['a Syrian port', 'Goods shipped from our agent in Latakia', 'Syria'],
    ['a Cuban province', 'Tobacco sourced from growers in Pinar del Rio', 'Cuba'],
    ['an occupied city of the Donetsk region', 'Steel from a mill in Mariupol', 'Donetsk region'],
  ])('%s is that country', (_name, line, country) => {
    expect(places(`${COMPANY}\n${line}`)).toEqual([`sanctioned jurisdiction: ${country}`]);
  });

  it('the country in the form’s own language', () => {
    expect(places(`${COMPANY}\nZweigniederlassung: Damaskus, Syrien`)).toEqual(['sanctioned jurisdiction: Syria']);
    expect(places(`${COMPANY}\nUsine partenaire : Corée du Nord`)).toEqual(['sanctioned jurisdiction: North Korea']);
    expect(places(`${COMPANY}\nAlmacén en Rusia`)).toEqual(['high-risk jurisdiction: Russia']);
  });
});

describe('a street named after a country is no place', () => {
  it.each([
    ['an English street', 'Showroom: 22 Havana Street, Aurora CO 80010'],
    ['a London road', 'UK office: 9 Moscow Road, London W2 4AH'],
    ['a Spanish calle', 'Almacén: Calle Cuba 14, 46006 Valencia, España'],
    ['a French rue', 'Bureau : 5 rue de Syrie, 69007 Lyon, France'],
  ])('%s', (_name, line) => {
    expect(run(`${COMPANY}\n${line}`).decision).toBe('onboard');
  });

  it('the street does not hide the country the address is in, and a mall or a court is no street', () => {
    expect(places(`${COMPANY}\nBranch: 12 Cuba Street, Havana`)).toEqual(['sanctioned jurisdiction: Cuba']);
    expect(places(`${COMPANY}\nShowroom: Tehran Mall, unit 4`)).toEqual(['sanctioned jurisdiction: Iran']);
  });
});

describe('a denial in the form’s own language, hard-wrapped over lines', () => {
  it('a German self-declaration that names the countries only to deny dealings with them', () => {
    const profile = [
      COMPANY,
      'E1 Wir unterhalten keine Lieferbeziehungen zu Firmen oder Personen in',
      '   Iran, Syrien, Kuba, Nordkorea, Russland oder Belarus und beziehen keine Waren aus',
      '   diesen Ländern.                                                            [X] trifft zu',
    ].join('\n');
    expect(run(profile).decision).toBe('onboard');
  });

  it('the same statement ticked "does not apply", or left unticked, denies nothing', () => {
    const statement = (boxes: string) =>
      [COMPANY, 'E1 Wir unterhalten keine Lieferbeziehungen zu Firmen in', `   Iran oder Syrien.   ${boxes}`].join('\n');
    expect(places(statement('[ ] trifft zu   [X] trifft nicht zu'))).toEqual(['sanctioned jurisdiction: Iran', 'sanctioned jurisdiction: Syria']);
    expect(places(statement('[ ] trifft zu   [ ] trifft nicht zu'))).toEqual(['sanctioned jurisdiction: Iran', 'sanctioned jurisdiction: Syria']);
    expect(places(statement('[X] trifft zu   [ ] trifft nicht zu'))).toEqual([]);
    expect(places(`${COMPANY}\nWe have no customers in Iran.   True [ ]  False [x]`)).toEqual(['sanctioned jurisdiction: Iran']);
    expect(places(`${COMPANY}\n[x] We have no customers in Iran.`)).toEqual([]);
  });

  it('the denial ends where a German or French sentence turns: the place after it is stated', () => {
    expect(places(`${COMPANY}\nWir haben keine Kunden in Iran, aber ein Lager in\nSyrien.`)).toEqual(['sanctioned jurisdiction: Syria']);
    expect(places(`${COMPANY}\nNous n'avons aucun client en Iran, mais un bureau à Damas en Syrie.`)).toEqual(['sanctioned jurisdiction: Syria']);
  });

  it('"not only" and "no problems" in German, French and Spanish assert presence', () => {
    expect(places(`${COMPANY}\nWir liefern nicht nur in Deutschland, auch nach Russland und Syrien.`)).toEqual(['sanctioned jurisdiction: Syria', 'high-risk jurisdiction: Russia']);
    expect(places(`${COMPANY}\nKeine Probleme mit unserem Lager in Teheran.`)).toEqual(['sanctioned jurisdiction: Iran']);
    expect(places(`${COMPANY}\nNo vendemos solo en España: también en Cuba.`)).toEqual(['sanctioned jurisdiction: Cuba']);
  });

  it('a line that ends a sentence does not run on: the next line’s place is stated', () => {
    expect(places(`${COMPANY}\nNo customers in Europe.\nFactory: Aleppo`)).toEqual(['sanctioned jurisdiction: Syria']);
  });
});
