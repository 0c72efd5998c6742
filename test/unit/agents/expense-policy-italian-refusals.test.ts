/**
 * An Italian policy's emphatic refusals ("Non sono in alcun caso rimborsabili: …") list refused things, the fridge bar
 * sold as "frigobar" being the minibar; a list naming laundry on short trips still refuses its other things; "a Milano
 * e Roma" is "in" those places (a limit by place after the general one); a limit per meal is not a daily one because
 * the sentence also counts meals a day; a meal the room's price includes is no limit of meals.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';

const run = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const POLICY = [
  'REGOLAMENTO RIMBORSO SPESE DI VIAGGIO',
  'Le spese di viaggio sono rimborsate ai dipendenti della società nei limiti che seguono, anche quando sono pagate con la carta aziendale.',
  '1. Pasti',
  'Pranzo o cena: fino a 30,00 € per pasto, non più di due pasti al giorno. Le spese sono rimborsate con ricevuta.',
  '2. Pernottamento',
  'Hotel fino a 3 stelle, prima colazione inclusa: massimo 120,00 € a notte; a Torino e Bologna massimo 150,00 € a notte.',
  '3. Esclusioni',
  'In nessun caso sono rimborsabili: frigobar, servizi di lavanderia per trasferte inferiori a 3 notti, pay-tv, multe.',
].join('\n');

const claim = (rows: string[]) => ['Data;Esercente;Categoria;Descrizione;Importo;Valuta;Ricevuta', ...rows].join('\n');

describe('expense-policy: Italian refusals, limits by place and per meal', () => {
  it('pays two meals of one day each under the per-meal limit, and a Bologna hotel under its own cap', () => {
    const r = run(claim([
      '03/03/2025;Trattoria Sole;Pasti;Pranzo;28,00;EUR;Sì',
      '03/03/2025;Osteria Luna;Pasti;Cena;29,00;EUR;Sì',
      '04/03/2025;Hotel Due Torri Bologna;Albergo;1 notte, Bologna;145,00;EUR;Sì',
    ]), POLICY);
    expect(r).toMatchObject({ verdict: 'approve', reimbursable_amount: 202 });
  });

  it('holds a hotel elsewhere to the general cap', () => {
    const r = run(claim(['04/03/2025;Hotel Centrale Padova;Albergo;1 notte, Padova;145,00;EUR;Sì']), POLICY);
    expect(r).toMatchObject({ verdict: 'flag', reimbursable_amount: 120 });
  });

  it('refuses a frigobar line claimed on its own', () => {
    const r = run(claim([
      '04/03/2025;Hotel Due Torri Bologna;Albergo;1 notte, Bologna;145,00;EUR;Sì',
      '04/03/2025;Hotel Due Torri Bologna;Extra;Frigobar camera 214;9,50;EUR;Sì',
    ]), POLICY);
    expect(r.verdict).toBe('reject');
    expect(r.reimbursable_amount).toBe(145);
    expect(r.violations.join(' ')).toContain('minibar');
  });
});
