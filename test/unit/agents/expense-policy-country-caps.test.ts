/**
 * Hotel and daily meal limits per country, in a German or an English policy ("Schweiz ..... 220,00 EUR" under "bis zu
 * folgenden Höchstbeträgen je Nacht:", "Switzerland   EUR 75" under "Meals, per calendar day, at most:"). A reviewer
 * places the expense in its country by the city it names or the currency only that country pays in; a hotel above its
 * country's nightly cap, or a day's meals above the daily one, is flagged and the excess not paid.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { readPolicy } from '../../../lambdas/agents/engines/expense-policy/policy.js';

const run = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const GERMAN = [
  'Nordlicht Messtechnik GmbH - Reisekostenordnung für Auslandsreisen',
  '',
  '3. Übernachtung',
  'Erstattet werden die Kosten des Zimmers bis zu folgenden Höchstbeträgen je',
  'Nacht:',
  '  Österreich ........................ 150,00 EUR',
  '  Schweiz ........................... 240,00 EUR',
  '  sonstige Länder ................... 130,00 EUR',
  '',
  '4. Verpflegung',
  'Erstattet werden die nachgewiesenen Kosten der Mahlzeiten, je Kalendertag höchstens:',
  '  Schweiz ........................... 80,00 EUR',
  '  sonstige Länder ................... 55,00 EUR',
  'Jede Ausgabe ist durch einen Beleg nachzuweisen. Ausgaben ohne Beleg werden nicht erstattet.',
].join('\n');

const CSV = (rows: string[]) => ['Datum;Händler;Kategorie;Betrag;Währung;Betrag (EUR);Beleg;Notiz', ...rows].join('\n');

describe('expense-policy: hotel and meal caps per country', () => {
  it('reads a German policy\'s nightly and daily caps per country, the other countries\' row as the fallback', () => {
    const p = readPolicy(GERMAN);
    expect(p.places.caps.map((c) => [c.places.join('/'), c.cents, c.fallback, c.period])).toEqual([
      ['Österreich', 15000n, false, 'night'], ['Schweiz', 24000n, false, 'night'], ['', 13000n, true, 'night']]);
    expect(p.caps.filter((c) => c.category === 'meals').map((c) => [c.places?.join('/'), c.cents, c.period])).toEqual([
      ['Schweiz', 8000n, 'day'], [undefined, 5500n, 'day']]);
  });

  it('holds a Zurich hotel (paid in CHF) to the Swiss cap × its nights and pools a day\'s meals against the Swiss daily cap', () => {
    const claim = CSV([
      '10.03.2026;Hotel Limmatblick Zürich;Hotel;620,00;CHF;651,00;ja;3 Nächte',
      '10.03.2026;Zunfthaus Restaurant;Verpflegung;52,00;CHF;54,60;ja;Abendessen',
      '11.03.2026;Café Sprüngli;Verpflegung;21,00;CHF;22,05;ja;Mittagessen',
      '11.03.2026;Bierhalle Kropf;Verpflegung;58,00;CHF;60,90;ja;Abendessen, Wasser',
    ]);
    const r = run(claim, GERMAN);
    expect(r.verdict).toBe('flag');
    // Hotel 651,00 ≤ 240 × 3 = 720. Meals 11.03: 22,05 + 60,90 = 82,95 > 80 → 2,95 not paid.
    expect(r.reimbursable_amount).toBe(651 + 54.6 + 80);
    expect(r.violations.join(' ')).toContain('80,00 EUR');
  });

  it('flags a Swiss hotel above the Swiss cap, the cap paid', () => {
    const claim = CSV(['02.06.2026;Hotel Bahnhof Bern;Hotel;560,00;CHF;590,00;ja;2 Nächte']);
    const r = run(claim, GERMAN);
    expect(r).toMatchObject({ verdict: 'flag', reimbursable_amount: 480 });
    expect(r.violations[0]).toContain('Schweiz');
  });

  it('holds a hotel in a country the table does not list to the other countries\' cap', () => {
    const claim = CSV(['02.06.2026;Hotel Adlon Lisboa;Hotel;300,00;EUR;300,00;ja;2 Nächte Lissabon']);
    const r = run(claim, GERMAN);
    expect(r).toMatchObject({ verdict: 'flag', reimbursable_amount: 260 });
  });

  it('reads the same limits in an English policy and approves a Vienna stay under the Austrian cap', () => {
    const english = [
      'TRAVEL POLICY - INTERNATIONAL',
      '',
      '2. Lodging',
      'Room cost is reimbursed up to the following amounts per night:',
      '  Austria .......................... EUR 150',
      '  Switzerland ...................... EUR 240',
      '  All other countries .............. EUR 130',
      '',
      '3. Meals',
      'Meals are reimbursed at actual cost, per calendar day at most:',
      '  Switzerland ...................... EUR 80',
      '  All other countries .............. EUR 55',
      'A receipt is required for every expense.',
    ].join('\n');
    const ok = run('2026-05-04 Hotel Stephansdom Wien, 2 nights, EUR 290.00, receipt attached', english);
    expect(ok).toMatchObject({ verdict: 'approve', reimbursable_amount: 290 });
    const over = run('2026-05-04 Dinner at Kronenhalle Zurich, EUR 96.00, receipt attached', english);
    expect(over).toMatchObject({ verdict: 'flag', reimbursable_amount: 80 });
  });
});

describe('expense-policy: a money limit no reader understands holds what it may limit', () => {
  it('holds a hotel under a sentence of limits by city it cannot read, citing the sentence', () => {
    const policy = 'Travel policy. All amounts in GBP.\nHotels: London 190 GBP, Edinburgh 150 GBP, others 110 GBP, breakfast included where offered.\nReceipts are required for every expense.';
    const r = run('2026-03-02 Hotel Caledonian Edinburgh, 1 night, GBP 185.00, receipt attached', policy);
    expect(r).toMatchObject({ verdict: 'flag', reimbursable_amount: 0 });
    expect(r.violations[0]).toContain('Hotels: London 190 GBP');
  });

  it('takes the subject of an amount from the label the sentence opens with', () => {
    const policy = 'Travel policy. All amounts in USD.\nMeals while travelling in Japan: the company pays the yen equivalent of USD 90 for each day abroad.\nReceipts are required for every expense.';
    expect(run('2026-03-02 Dinner Tokyo, USD 120.00, receipt attached', policy)).toMatchObject({ verdict: 'flag', reimbursable_amount: 0 });
    // A taxi is no meal: the sentence does not bear on it.
    expect(run('2026-03-02 Taxi Tokyo, USD 40.00, receipt attached', policy)).toMatchObject({ verdict: 'approve', reimbursable_amount: 40 });
  });

  it('does not hold on an amount restating a limit read, nor on a threshold ("$25 and over")', () => {
    const policy = 'Travel policy.\nMeals are reimbursed up to $75 per day.\nThe $75 is a daily total, so a light lunch leaves room for dinner.\nReceipts are required for every expense.';
    expect(run('2026-03-02 Lunch Denver, $30.00, receipt attached', policy)).toMatchObject({ verdict: 'approve', reimbursable_amount: 30 });
  });

  it('reads German hotel limits by city in one sentence, the receipt required at any amount', () => {
    const policy = [
      'Reisekostenrichtlinie für alle Mitarbeitenden und die Geschäftsführung.',
      '§ 3 Übernachtung',
      'Hotelkosten werden gegen Rechnung bis zu folgenden Obergrenzen je Nacht erstattet',
      '(Zimmer ohne Frühstück): Stuttgart, Mannheim 120 €; Leipzig, Dresden 100 €;',
      'übrige Orte 85 €.',
    ].join('\n');
    expect(run('2026-03-02 Hotel am Zwinger Dresden, 2 Nächte, 230,00 €, receipt attached', policy)).toMatchObject({ verdict: 'flag', reimbursable_amount: 200 });
    expect(run('2026-03-02 Hotel Schlossgarten Stuttgart, 2 Nächte, 230,00 €, receipt attached', policy)).toMatchObject({ verdict: 'approve', reimbursable_amount: 230 });
    expect(run('2026-03-02 Hotel Krone Ulm, 1 Nacht, 90,00 €, receipt attached', policy)).toMatchObject({ verdict: 'flag', reimbursable_amount: 85 });
  });
});

describe('expense-policy: several amounts in one limit sentence', () => {
  it('holds to the lowest when the places of its amounts are not told apart', () => {
    const policy = 'Reisekostenrichtlinie. Alle Beträge in Euro.\n§ 3 Übernachtung\nIn der Schweiz gelten 220,00 EUR, in den übrigen Ländern 160,00 EUR als Obergrenze für das Zimmer.\n§ 4 Belege\nJede Ausgabe ist durch einen Beleg nachzuweisen und wird ohne Beleg nicht erstattet.';
    expect(run('2026-03-02 Hotel Tejo Lisboa, 1 night, EUR 200.00, receipt attached', policy)).toMatchObject({ verdict: 'flag', reimbursable_amount: 160 });
  });

  it('reads "… in <places>, otherwise up to …" as limits by place', () => {
    const policy = 'Travel policy. All amounts in EUR.\nHotel costs are reimbursed up to EUR 240 per night in Paris, Lyon and Nice, otherwise up to EUR 140 per night.';
    expect(run('2026-03-02 Hotel Bellecour Lyon, 1 night, EUR 230.00, receipt attached', policy)).toMatchObject({ verdict: 'approve', reimbursable_amount: 230 });
    expect(run('2026-03-02 Hotel du Port Brest, 1 night, EUR 230.00, receipt attached', policy)).toMatchObject({ verdict: 'flag', reimbursable_amount: 140 });
  });
});

describe('expense-policy: a rate per night stated for a place, and the rest of the country', () => {
  const policy = [
    'Travel policy (Ireland and UK staff). Amounts in GBP.',
    '',
    '4. Accommodation',
    '   Bed and breakfast rate, per night: Edinburgh £150; Glasgow £130; rest of Scotland £95.',
    '',
    '5. Receipts',
    '   A receipt is required for every expense.',
  ].join('\n');

  it('reads the rate named for a place as its limit, and "rest of …" as every other place\'s', () => {
    expect(run('2026-06-02 Hotel Caledonian Edinburgh, 1 night, GBP 140.00, receipt attached', policy)).toMatchObject({ verdict: 'approve', reimbursable_amount: 140 });
    expect(run('2026-06-02 Station Hotel Inverness, 1 night, GBP 140.00, receipt attached', policy)).toMatchObject({ verdict: 'flag', reimbursable_amount: 95 });
  });
});
