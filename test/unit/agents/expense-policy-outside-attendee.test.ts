/**
 * "At least one person from outside the company must attend" a client meal: met when the attendee list given with the
 * meal names a client or guest, or two organisations; held for a reviewer (flag, withheld) when the list names the
 * company's own people only or there is no list. Read in English and in the languages whose policies are read.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';
import { attendeesIn, outsideMet } from '../../../lambdas/agents/engines/expense-policy/attendees.js';

const run = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const EN_POLICY = [
  'Client entertainment',
  'Client meals are reimbursed up to $80 per attendee.',
  'At least one attendee from outside the company must be present.',
  '',
  'Meals while travelling',
  'Individual meals are reimbursed up to $40 per meal.',
].join('\n');

const report = (attendees: string[]) => [
  'Expense report  Q2 visits',
  'Date        Type                       Merchant              Amount',
  '2026-05-12  Client dinner              Osteria Nove          240.00 USD',
  '2026-05-13  Meal                       Airport Deli           18.00 USD',
  '',
  '[1] Client dinner · Osteria Nove · receipt attached',
  `    Attendees (${attendees.length}):`,
  ...attendees.map((a) => `      - ${a}`),
  '[2] Meal · Airport Deli · receipt attached',
].join('\n');

describe('expense-policy: an outside attendee required at a client meal', () => {
  it('approves a client dinner whose attendees are of two organisations', () => {
    const r = run(report(['Dana Ruiz · Northwind Labs · Sales lead', 'Omar Haddad · Fabrikam Foods · Buyer', 'Lee Chan · Fabrikam Foods · CFO']), EN_POLICY);
    expect(r).toMatchObject({ verdict: 'approve', reimbursable_amount: 258 });
  });

  it('holds a client dinner whose attendees are all of one organisation, the individual meal still paid', () => {
    const r = run(report(['Dana Ruiz · Northwind Labs · Sales lead', 'Paul Berg · Northwind Labs · Engineer', 'Ann Otto · Northwind Labs · Analyst']), EN_POLICY);
    expect(r.verdict).toBe('flag');
    expect(r.reimbursable_amount).toBe(18);
    expect(r.violations.join(' ')).toContain('at least one attendee from outside');
  });

  it('holds a client dinner with no attendee list', () => {
    const r = run('2026-05-12 Client dinner at Osteria Nove $150.00, receipt attached, 2 people', EN_POLICY);
    expect(r.verdict).toBe('flag');
    expect(r.reimbursable_amount).toBe(0);
  });

  it('reads the rule in French and Portuguese, an attendee named as a client meeting it', () => {
    const fr = [
      'Repas d\'affaires avec des clients',
      'Le repas est remboursé dans la limite de 70,00 € par convive.',
      'Au moins une personne extérieure à l\'entreprise doit participer au repas.',
    ].join('\n');
    const claim = ['2026-06-02  Repas client  Brasserie du Port  65,00 EUR  justificatif joint', '  Convives (2) :', '    - Julie Marchand (salariée)', '    - Hugo Leroy (client, Atelier Leroy)'].join('\n');
    expect(run(claim, fr)).toMatchObject({ verdict: 'approve', reimbursable_amount: 65 });
    const pt = ['Refeições com clientes', 'Limite de R$ 150,00 por participante.', 'Deve estar presente pelo menos uma pessoa externa à empresa.'].join('\n');
    const own = ['2026-06-02  Refeição com cliente  Restaurante Mar  R$ 200,00  recibo anexado', '  Participantes: Ana Lima (funcionária), Rui Costa (funcionário)'].join('\n');
    expect(run(own, pt).verdict).toBe('flag');
  });

  it('tells organisations and outside attendees apart in a list', () => {
    const list = attendeesIn('Guests:\n  - Ana Ruiz (Head of Ops, Contoso)\n  - Ben Ode (Account manager, Our Co)\n');
    expect(list?.map((a) => a.org)).toEqual(['Contoso', 'Our Co']);
    expect(outsideMet(list!).met).toBe(true);
    expect(outsideMet(attendeesIn('Attendees: Ana Ruiz (employee), Ben Ode (employee)')!).met).toBe(false);
  });
});
