/**
 * RULES.md "CSV export": an export's columns named in German (Circula, Moss, Spesen exports: "Datum", "Händler",
 * "Kategorie", "Betrag", "Währung", "Betrag (EUR)", "Beleg", "Notiz"), separated by ";" with decimal commas and CRLF
 * line ends, are read as the English ones; the amount in the reimbursement currency is the claim; "nein" is no receipt.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { readExpense } from '../../../lambdas/agents/engines/expense-policy/expense.js';

const analyse = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const EXPORT = [
  'Datum;Händler;Kategorie;Betrag;Währung;Kurs;Betrag (EUR);Beleg;Notiz',
  '12.03.2026;Hotel Seeblick Zürich;Hotel;410,00;CHF;1,0450;428,45;ja;2 Nächte',
  '12.03.2026;Brasserie Lipp;Verpflegung;52,00;CHF;1,0450;54,34;ja;Abendessen',
  '13.03.2026;SBB;Bahn;18,60;CHF;1,0450;19,44;nein;Tageskarte',
].join('\r\n');

describe('expense-policy: a CSV export with German column names', () => {
  it('reads each row at its amount in the reimbursement currency, with its receipt and category', () => {
    const { items } = readExpense(EXPORT, 'EUR');
    expect(items.map((i) => [i.cents, i.currency, i.category, i.receipt])).toEqual([
      [42845n, 'EUR', 'lodging', true], [5434n, 'EUR', 'meals', true], [1944n, 'EUR', 'rail', false],
    ]);
    expect(items[0].nights).toBe(2n);
  });

  it('checks the rows against the policy: the row without a receipt is refused', () => {
    const r = analyse(EXPORT, 'A receipt is required for every expense. Hotel up to EUR 250 per night.');
    // 428.45 + 54.34; the rail ticket has no receipt.
    expect(r.reimbursable_amount).toBe(482.79);
    expect(r.verdict).toBe('reject');
  });
});

describe('expense-policy: a Dutch report closed by "Totaal te vergoeden"', () => {
  it('reads the total as the claim\'s, so the receipts typed below it are no expenses', () => {
    const report = [
      'Nr  Datum       Categorie   Omschrijving                   Bedrag',
      '1   04/02/2026  Trein       NS Utrecht - Rotterdam          18,40',
      '2   04/02/2026  Maaltijd    Lunch Brasserie Maas            27,50',
      '                                   Totaal te vergoeden      45,90 EUR',
      '',
      'Bewijsstuk 2 - Brasserie Maas  04/02/2026 12:40  Uitsmijter 14,50  Koffie 3,50',
      '               Jus d\'orange 9,50  Totaal 27,50',
    ].join('\n');
    const { items } = readExpense(report, 'EUR');
    expect(items.map((i) => i.cents)).toEqual([1840n, 2750n]);
  });
});

describe('expense-policy: a French CSV export and one meal filed twice', () => {
  const EXPORT = [
    'Date;Fournisseur;Description;Catégorie;Montant TTC (EUR);TVA (EUR);Type de paiement;Justificatif',
    '02/06/2026;Brasserie du Port;Déjeuner client - addition;Repas;42,00;3,82;Note de frais;IMG_0411.jpg',
    '02/06/2026;Brasserie du Port;Repas midi - ticket carte;Repas;42,00;3,82;Note de frais;IMG_0412.jpg',
    '02/06/2026;Taxi G7;Gare - client;Taxi;18,50;1,68;Note de frais;IMG_0413.jpg',
    '02/06/2026;Taxi G7;Client - gare;Taxi;18,50;1,68;Note de frais;IMG_0414.jpg',
  ].join('\r\n');

  it('reads "Montant TTC (EUR)" as the amount and "Justificatif" as the receipt', () => {
    const { items } = readExpense(EXPORT, 'EUR');
    expect(items.map((i) => [i.cents, i.currency, i.receipt])).toEqual([[4200n, 'EUR', true], [4200n, 'EUR', true], [1850n, 'EUR', true], [1850n, 'EUR', true]]);
  });

  it('pays one restaurant meal of one day and amount once, and two taxi rides of one fare twice', () => {
    const r = analyse(EXPORT, 'Un justificatif est obligatoire. Meals up to EUR 50 per person.');
    expect(r.reimbursable_amount).toBe(79);
    expect(r.verdict).toBe('flag');
    expect(r.violations.join('\n')).toMatch(/duplicate claim.*Brasserie du Port/);
  });
});

describe('expense-policy: a Swedish CSV export closed by its sum', () => {
  it('reads Belopp, Valuta, Handlare, Kvitto and drops the "Summa att återbetala" row equal to the rows above', () => {
    const rows = [
      'Datum;Handlare;Belopp;Valuta;Kategori;Anteckning;Kvitto',
      '2026-01-12;Västtrafik;36,00;SEK;Lokaltrafik;Enkelbiljett;Ja',
      '2026-01-12;Max Burgers;119,00;SEK;Måltid;Lunch kundbesök;Ja',
      '2026-01-13;Taxi Göteborg;245,00;SEK;Taxi;Hotell - kund;Nej',
      ';;;;;;',
      ';Summa att återbetala;400,00;SEK;;Exporterad 2026-01-20;',
    ].join('\r\n');
    const { items } = readExpense(rows, 'SEK');
    expect(items.map((i) => [i.cents, i.currency, i.receipt])).toEqual([[3600n, 'SEK', true], [11900n, 'SEK', true], [24500n, 'SEK', false]]);
  });

  it('keeps a last row that is not the sum of the rows above', () => {
    const rows = ['Datum;Handlare;Belopp;Valuta', '2026-01-12;Taxi;36,00;SEK', '2026-01-12;Sum Sushi;119,00;SEK', '2026-01-13;Total Parking;20,00;SEK'].join('\n');
    expect(readExpense(rows, 'SEK').items).toHaveLength(3);
  });
});
