/**
 * A ledger export whose dates are four digits without the year ("0305", "2703"): day and month run together, as
 * DATEV's Belegdatum. The order is told by a pair above 12, else by the period the file prints (compact dates in its
 * header line); the year comes from that period. A column whose order nothing tells is refused. Written for these
 * tests, not copied from any corpus file.
 */
import { describe, expect, it } from 'vitest';
import { isoDate } from '../../../lambdas/agents/engines/text/dates.js';
import { readStatement } from '../../../lambdas/agents/engines/text/statement.js';
import { rec, shape } from '../../support/bank-rec-engine.js';

const read = (text: string) => readStatement(text, 'bookEntries', { perspective: 'books' });
const dates = (text: string) => read(text).lines.map((l) => [isoDate(l.date), Number(l.amountCents) / 100]);
const head = (from: string, to: string) => `"EXTF";700;21;"Buchungsstapel";13;20250402101500123;;"RE";"SB";"";1001;2002;20250101;4;${from};${to};"Bank 03/2025";"SB";1;0;0;"EUR"`;
const columns = 'Umsatz (ohne Soll/Haben-Kz);Soll/Haben-Kennzeichen;WKZ Umsatz;Konto;Gegenkonto (ohne BU-Schlüssel);Belegdatum;Belegfeld 1;Buchungstext';

describe('four-digit dates without the year', () => {
  it('reads them day first when a first pair exceeds 12, the year from the compact period', () => {
    const text = [head('20250301', '20250331'), columns, '500,00;"S";"EUR";1200;8400;0303;"R-17";"Kunde Lenz"', '120,50;"H";"EUR";1200;4930;2703;"B-4";"Buerobedarf"'].join('\n');
    expect(dates(text)).toEqual([['2025-03-03', 500], ['2025-03-27', -120.5]]);
  });

  it('when no pair exceeds 12, the period the file prints decides the order', () => {
    const text = [head('20250301', '20250331'), columns, '500,00;"S";"EUR";1200;8400;0303;"R-17";"Kunde Lenz"', '80,00;"H";"EUR";1200;4930;1003;"B-5";"Porto"'].join('\n');
    expect(dates(text)).toEqual([['2025-03-03', 500], ['2025-03-10', -80]]);
  });

  it('over a fiscal year that is not the calendar one, each date takes the year that puts it within the file\'s span', () => {
    // Fiscal year from 1 October 2025; the batch is July 2026: July is in 2026, not in the first of the two years.
    const fiscal = `"EXTF";700;21;"Buchungsstapel";13;20260802101500123;;"RE";"SB";"";1001;2002;20251001;4;20260701;20260731;"Bank 07/2026";"SB";1;0;0;"EUR"`;
    const text = [fiscal, columns, '500,00;"S";"EUR";1200;8400;0107;"R-17";"Kunde Lenz"', '80,00;"H";"EUR";1200;4930;1507;"B-5";"Porto"'].join('\n');
    expect(dates(text)).toEqual([['2026-07-01', 500], ['2026-07-15', -80]]);
  });

  it('refuses the column when neither a pair nor a period tells the order', () => {
    const text = [columns, '500,00;"S";"EUR";1200;8400;0303;"R-17";"Kunde Lenz"', '80,00;"H";"EUR";1200;4930;1003;"B-5";"Porto"'].join('\n');
    expect(() => read(text)).toThrow(/day and month without the year/);
  });

  it('reconciles such a ledger against a bank statement: the unbooked fee is missing in the books', () => {
    const books = [head('20250301', '20250331'), columns, '500,00;"S";"EUR";1200;8400;0303;"R-17";"Kunde Lenz"', '120,50;"H";"EUR";1200;4930;2703;"B-4";"Buerobedarf"'].join('\n');
    const bank = ['Buchung;Verwendungszweck;Betrag', '03.03.2025;Lenz R-17;500,00', '27.03.2025;Buerobedarf B-4;-120,50', '31.03.2025;Entgelt;-3,90'].join('\n');
    const r = rec(bank, books);
    expect(shape(r)).toEqual([['missing_in_books', -3.9]]);
    expect(r.matched).toBe(2);
  });
});
