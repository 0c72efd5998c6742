/**
 * A Brazilian bank's extrato as a practitioner reads it: the balance rows ("Saldo Anterior", a closing balance printed
 * letter-spaced as "S A L D O", "SALDO DO DIA") are not transactions; the counterparty is in the Detalhes column on
 * the bank side and in the Contato column of the ERP's bank movements; a customer's Pix short of the invoice booked
 * in full, same payer and day, is one amount mismatch, not a line missing on each side. Two companies that are both
 * "Ltda" are not one counterparty. Written for these tests, not copied from any corpus file.
 */
import { describe, expect, it } from 'vitest';
import { rec, shape } from '../../support/bank-rec-engine.js';

const bank = [
  '"Data","Lançamento","Detalhes","N° documento","Valor","Tipo Lançamento"',
  '"31/08/2026","Saldo Anterior","","","12.400,00",""',
  '"03/09/2026","Pix - Recebido","03/09 10:02 ATACADO SERRANO LTDA","200301","7.760,00","Entrada"',
  '"03/09/2026","SALDO DO DIA","","","20.160,00",""',
  '"08/09/2026","Pix - Enviado","08/09 15:40 GRAFICA LITORAL LTDA","200801","-1.330,00","Saída"',
  '"30/09/2026","S A L D O","","","18.830,00",""',
].join('\n');

const books = (serrano: string, grafica = 'Gráfica Litoral Ltda') =>
  [
    'Data;Descrição;Categoria;Contato;Documento;Valor;Situação',
    `03/09/2026;Recebimento NF 812;Vendas;${serrano};NF 812;8.000,00;Recebido`,
    `08/09/2026;Impressão catálogos;Marketing;${grafica};NF 3301;-1.330,00;Pago`,
  ].join('\n');

describe('a Brazilian extrato against ERP bank movements', () => {
  it('balance rows are not lines; the short Pix is one amount mismatch with its payer', () => {
    const r = rec(bank, books('Atacado Serrano Ltda'));
    expect(shape(r)).toEqual([['amount_mismatch', -240]]);
    expect(r.matched).toBe(1);
    expect(r.net_unreconciled).toBe(-240);
  });

  it('another company, "Ltda" too, is not the payer: a line missing on each side', () => {
    const r = rec(bank, books('Distribuidora Ponta Grossa Ltda'));
    expect(shape(r)).toEqual(expect.arrayContaining([['missing_in_books', 7760], ['missing_on_bank', -8000]]));
    expect(r.exceptions.some((e) => e.type === 'amount_mismatch')).toBe(false);
  });
});
