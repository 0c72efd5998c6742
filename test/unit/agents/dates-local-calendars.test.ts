/**
 * Dates as banks and ledgers outside the English-speaking world write them: month names in their languages
 * (03/Dic/2026 as Aspel prints it, 5 de noviembre de 2026, 2. listopada 2026, 14 Ağu 2026), the Minguo (ROC) years of
 * Taiwan, the Japanese eras and the Thai Buddhist years. Written for these tests, not copied from any corpus file.
 */
import { describe, expect, it } from 'vitest';
import { calendarNote, monthOf } from '../../../lambdas/agents/engines/text/calendars.js';
import { isoDate, readDate, yearsOf } from '../../../lambdas/agents/engines/text/dates.js';

const iso = (t: string) => {
  const d = readDate(t, 'dmy');
  return d === undefined ? undefined : isoDate(d);
};

describe('month names in other languages', () => {
  it('reads abbreviated and full month names of several languages', () => {
    expect(iso('03/Dic/2026')).toBe('2026-12-03');
    expect(iso('15/Ene/2027')).toBe('2027-01-15');
    expect(iso('5 de noviembre de 2026')).toBe('2026-11-05');
    expect(iso('07-ago-2026')).toBe('2026-08-07');
    expect(iso('2. listopada 2026')).toBe('2026-11-02');
    expect(iso('14 Ağu 2026')).toBe('2026-08-14');
    expect(iso('01 Okt 2026')).toBe('2026-10-01');
    expect(iso('12 août 2026')).toBe('2026-08-12');
    expect(iso('Mayo 4, 2026')).toBe('2026-05-04');
  });

  it('refuses an abbreviation two months share', () => {
    expect(monthOf('jui')).toBe(0);
    expect(monthOf('juil')).toBe(7);
    expect(iso('03 jui 2026')).toBeUndefined();
  });
});

describe('local calendars, read where the form proves them', () => {
  it('reads a three-digit year as the Minguo (ROC) count', () => {
    expect(iso('114/02/28')).toBe('2025-02-28');
    expect(iso('115.12.01')).toBe('2026-12-01');
    expect(iso('民國115年3月9日')).toBe('2026-03-09');
    expect(iso('114/02/30')).toBeUndefined();
    expect(calendarNote(['114/02/28'])).toMatch(/Minguo \(ROC\).*2025-02-28/);
  });

  it('reads the Japanese eras', () => {
    expect(iso('令和7年4月1日')).toBe('2025-04-01');
    expect(iso('R7.04.01')).toBe('2025-04-01');
    expect(iso('平成31年4月30日')).toBe('2019-04-30');
  });

  it('reads a Buddhist year (2400 on) as the Gregorian year plus 543', () => {
    expect(iso('28/02/2568')).toBe('2025-02-28');
    expect(calendarNote(['28/02/2568'])).toMatch(/Buddhist/);
    expect(calendarNote(['28/02/2025'])).toBeUndefined();
  });

  it('takes the year of yearless dates from a period written in CJK or dotted form', () => {
    expect(yearsOf('기간: 2025년 03월 01일 ~ 2025년 03월 31일')('03-14')).toBe(2025);
    expect(yearsOf('조회기간 2025.03.01 ~ 2025.03.31')('03-14')).toBe(2025);
  });
});
