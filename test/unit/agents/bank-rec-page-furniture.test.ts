/**
 * A statement printed over several pages: the balance carried forward at a page's foot, brought forward at the next
 * page's head, and the page header printed again are page furniture, never transactions. Written from the form of
 * such statements, not from any corpus file.
 */
import { describe, expect, it } from 'vitest';
import { readStatement } from '../../../lambdas/agents/engines/text/statement.js';

const statement = `Northfield Bank plc                                  Statement 12 (Page 1 of 2)
Account 40-11-22 71234567       Period 1 Mar 2026 - 31 Mar 2026

Date     Details                                  Paid out      Paid in        Balance
02 Mar   BALANCE BROUGHT FORWARD                                               2,000.00
03 Mar   BACS ORCHARD TRADING                                   1,250.00      3,250.00
         REF ORD-5510
05 Mar   DD BRITISH GAS                             184.20                    3,065.80
         BALANCE CARRIED FORWARD                                              3,065.80

Northfield Bank plc                                  Statement 12 (Page 2 of 2)
Account 40-11-22 71234567

Date     Details                                  Paid out      Paid in        Balance
         BALANCE BROUGHT FORWARD                                              3,065.80
12 Mar   CHQ 000318                                 640.00                    2,425.80
20 Mar   FPI HOLLIS LTD                                           410.00      2,835.80
31 Mar   BALANCE CARRIED FORWARD                                              2,835.80
`;

describe('a statement over two pages', () => {
  it('reads the four transactions and none of the carried or brought forward balances or repeated headers', () => {
    const s = readStatement(statement, 'bankStatement', { perspective: 'bank' });
    expect(s.lines.map((l) => [l.dateText, Number(l.amountCents) / 100])).toEqual([
      ['03 Mar 2026', 1250], ['05 Mar 2026', -184.2], ['12 Mar 2026', -640], ['20 Mar 2026', 410],
    ]);
    expect(s.notes.join(' ')).toContain('the running balance confirms the direction of the amounts');
  });
});
