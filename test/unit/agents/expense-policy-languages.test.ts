import { describe, expect, it } from 'vitest';
import { languageOf } from '../../../lambdas/agents/engines/expense-policy/languages.js';
import { englishNumbers } from '../../../lambdas/agents/engines/expense-policy/glossary.js';
import { readPolicy } from '../../../lambdas/agents/engines/expense-policy/policy.js';

const FR = `Politique voyages de la société Durand et Fils
Les frais de repas sont remboursés sur justificatif, dans la limite de 20,00 € par repas.
Les dépenses de minibar ne sont pas remboursées. Le train est pris en 2nde classe pour tous les salariés.`;
const ES = `Normativa de gastos de la empresa
Los gastos de alojamiento se reembolsan con factura, con un máximo de 80,00 € por noche.
Las bebidas alcohólicas no se reembolsan. El tren es en clase turista para todos los empleados.`;
const PT = `Política de despesas da empresa
As despesas de hospedagem são reembolsadas até R$ 300,00 por diária, com comprovante.
Bebidas alcoólicas não são reembolsáveis em nenhuma hipótese. Também não são pagas multas.`;
const PL = `Regulamin delegacji firmy
Koszty noclegu podlegają zwrotowi na podstawie faktury, do wysokości 400,00 zł za nocleg.
Nie podlegają zwrotowi: napoje alkoholowe, mandaty oraz wydatki o charakterze prywatnym. Dieta jest wypłacana.`;
const JA = `出張旅費規程
第2条（領収書）
すべての経費について領収書を添付する。ただし、電車の運賃で1件2,000円未満のものは、領収書の添付を要しない。
第3条（宿泊料）
宿泊料は実費を支給する。`;

describe('the language of a policy', () => {
  it('tells the Romance languages, Polish and Japanese apart by their own words or script', () => {
    expect(languageOf(FR)).toBe('fr');
    expect(languageOf(ES)).toBe('es');
    expect(languageOf(PT)).toBe('pt');
    expect(languageOf(PL)).toBe('pl');
    expect(languageOf(JA)).toBe('ja');
    expect(languageOf('Meals are capped at $75 per day and receipts are required for every expense of the trip.')).toBeUndefined();
  });
  it('writes local numbers the English way by their shape', () => {
    expect(englishNumbers('53,34 €')).toBe('53.34 €');
    expect(englishNumbers('1 234,56 zł')).toBe('1234.56 zł');
    expect(englishNumbers('$1,900.00 MXN')).toBe('$1900.00 MXN');
    expect(englishNumbers('1.250,00 €')).toBe('1250.00 €');
    expect(englishNumbers('15,000円', 'thousands')).toBe('15000円');
  });
});

describe('policies read through a glossary', () => {
  it('reads a French meal limit per meal and a refused minibar', () => {
    const p = readPolicy(FR);
    expect(p.caps.some((c) => c.category === 'meals' && c.cents === 2000n)).toBe(true);
    expect(p.forbiddenThings.some((t) => /minibar/.test(t.phrase))).toBe(true);
  });
  it('reads a Spanish nightly hotel limit and refused alcohol', () => {
    const p = readPolicy(ES);
    expect(p.caps.some((c) => c.category === 'lodging' && c.cents === 8000n && c.period === 'night')).toBe(true);
    expect(p.alcoholForbidden).toBeDefined();
  });
  it('reads a Brazilian limit per diária in reais', () => {
    const p = readPolicy(PT);
    expect(p.currency).toBe('BRL');
    expect(p.caps.some((c) => c.category === 'lodging' && c.cents === 30000n)).toBe(true);
  });
  it('reads a Japanese receipt rule and its exemption below an amount', () => {
    const p = readPolicy(JA.normalize('NFKC'));
    expect(p.receipts.some((r) => r.cents === 0n && r.except.includes('rail'))).toBe(true);
    expect(p.receipts.some((r) => r.cents === 200000n && r.categories.includes('rail'))).toBe(true);
  });
});
