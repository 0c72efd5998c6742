/**
 * How a vendor asks to be paid, read in the words it writes (RULES.md rules 6 and 7): money before the goods leave,
 * as a share of an order or in the advance words of Spanish, French, German and Italian; and a change of bank
 * details in those languages. The clean company of vendor-risk-company.ts with one sentence added.
 */
import { describe, expect, it } from 'vitest';
import { vendorRiskEngine } from '../../../lambdas/agents/engines/vendor-risk/engine.js';
import { COMPANY_LINES } from '../../support/vendor-risk-company.js';

const COMPANY = COMPANY_LINES.join('\n');
const flagsOf = (line: string) => vendorRiskEngine.analyse({ vendorProfile: `${COMPANY}\n${line}` }).flags;
const areas = (line: string) => flagsOf(line).map((f) => f.split(':')[0]);

describe('money before the goods leave', () => {
  it.each([
    ['a share of an order to be received before dispatch', 'Please add 40% of order 7781, which we must receive before the goods are shipped.'],
    ['Spanish: a share to be received before dispatch', 'Necesitamos cobrar el 30 % del pedido antes del envío de la mercancía.'],
    ['Spanish: pago anticipado', 'Condiciones: pago anticipado por transferencia.'],
    ['French: acompte', 'Conditions : acompte de 50 % à la commande, solde à 30 jours.'],
    ['French: payment before delivery', 'Le virement du montant total doit être reçu avant livraison.'],
    ['German: Vorauskasse', 'Zahlungsbedingungen: Vorauskasse.'],
    ['German: Anzahlung with its share', 'Bitte leisten Sie eine Anzahlung von 30 % vor Versand.'],
    ['Italian: pagamento anticipato', 'Termini: pagamento anticipato, bonifico prima della spedizione.'],
  ])('%s → upfront payment demand', (_name, line) => {
    expect(areas(line)).toEqual(['upfront payment demand']);
  });

  it.each([
    ['a timing with no money', 'Final inspection takes place before the goods are shipped.'],
    ['German: no advance', 'Anzahlung: keine. Zahlungsziel 30 Tage netto, Vorauskasse nicht erforderlich.'],
    ['Spanish: no advance', 'No exigimos pago anticipado; 30 días fecha factura.'],
    ['French: no deposit', 'Livraison sans acompte, paiement à 30 jours.'],
    ['a money sentence that ends before the timing', 'Payment at 30 days. Goods are inspected before dispatch.'],
  ])('%s → clean', (_name, line) => {
    expect(flagsOf(line)).toEqual([]);
  });
});

describe('a change of bank details in the vendor’s language', () => {
  it.each([
    ['Spanish', 'Les rogamos que a partir de hoy abonen las facturas en nuestras nuevas coordenadas bancarias.'],
    ['French', 'Veuillez noter le changement de coordonnées bancaires : notre nouveau compte est à la Caisse.'],
    ['German', 'Bitte beachten Sie unsere neue Bankverbindung ab 1. Dezember.'],
    ['Italian', 'Vi comunichiamo la variazione delle coordinate bancarie: nuovo IBAN in allegato.'],
    ['Portuguese', 'Informamos os novos dados bancários para pagamento.'],
  ])('%s → payment redirection', (_name, line) => {
    expect(areas(line)).toEqual(['payment redirection']);
  });

  it.each([
    ['French: a promise never to change', 'Nous ne vous demanderons jamais un changement de coordonnées bancaires par courriel.'],
    ['French: a new supplier account is not a bank account', "Création d'un nouveau compte fournisseur : Transports Belleau inc."],
    ['German: bank details given for the first time', 'Bankverbindung: Sparkasse Köln, IBAN DE12 3705 0198 0000 1234 56, Kontoinhaber Northwind Traders LLC'],
  ])('%s → clean', (_name, line) => {
    expect(flagsOf(line)).toEqual([]);
  });
});
