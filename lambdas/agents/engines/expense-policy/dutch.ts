/**
 * A Dutch policy (reglement dienstreizen, onkostenbeleid) states the rule forms an English one does: limits per night
 * or meal ("maximum EUR 160 per nacht", "tot EUR 25 voor een lunch"), receipts required above an amount ("voor elke
 * uitgave van meer dan EUR 25 is een origineel ticket of factuur verplicht"), refusals ("wordt niet terugbetaald") and
 * approvals ("met voorafgaand akkoord"). Each sentence is read through this glossary into those English forms; the
 * sentence cited stays the Dutch one. Anything else stays Dutch and is read by nothing.
 */
import { BEFORE_AMOUNT, phrase } from './glossary.js';

export const DUTCH_WORDS = ['het', 'een', 'en', 'van', 'voor', 'met', 'wordt', 'worden', 'zijn', 'niet', 'bij', 'tot', 'elke', 'geen', 'naar', 'ook', 'deze', 'onkosten', 'uitgaven'];

export const DUTCH: [RegExp, string][] = [
  // Refusals.
  [phrase('(?:wordt|worden) (?:niet|nooit) (?:terugbetaald|vergoed)|niet (?:terugbetaalbaar|vergoedbaar|terugbetaald|vergoed|toegestaan)|komt niet in aanmerking voor (?:terugbetaling|vergoeding)'), 'not reimbursable'],
  [phrase('geen (?:terugbetaling|vergoeding)'), 'no reimbursement'],
  [phrase('(?:wordt|worden) (?:terugbetaald|vergoed)|terugbetaald|vergoed|terugbetaalbaar'), 'reimbursed'],
  // Receipts: "een origineel ticket of factuur", "bewijsstuk", "kasticket". A "ticket" is a till receipt only where
  // it is named with an invoice, as the original or as what is missing; a train ticket stays a ticket.
  [phrase('(?:origineel |originele )?(?:ticket|bewijsstuk|kasticket|kassaticket|kassabon|bonnetje) (?:of|en) (?:een )?(?:originele )?factuur|(?:originele )?factuur (?:of|en) (?:een )?(?:ticket|kasticket|kassabon)'), 'receipt'],
  [phrase('(?:originele )?(?:bewijsstukken|kastickets|kassatickets|kassabonnen|bonnetjes|facturen|betaalbewijzen)'), 'receipts'],
  [phrase('(?:origineel |originele )?(?:bewijsstuk|kasticket|kassaticket|kassabon|bonnetje|factuur|betaalbewijs)|origineel ticket|zonder ticket'), 'receipt'],
  [phrase('verplicht|vereist|noodzakelijk'), 'required'],
  [phrase('voor te leggen|in te dienen|toe te voegen|bij te voegen'), 'must be attached'],
  [phrase('behalve|uitgezonderd|met uitzondering van'), 'except'],
  [phrase('zonder'), 'without'],
  [phrase('enkel|alleen|uitsluitend'), 'only'],
  // Approvals.
  [phrase('(?:met |na )?(?:voorafgaand|voorafgaande|voorafgaandelijk|voorafgaandelijke) (?:schriftelijk |schriftelijke )?(?:akkoord|goedkeuring|toestemming)'), 'with prior approval'],
  [phrase('(?:akkoord|goedkeuring|toestemming)'), 'approval'],
  [phrase('(?:de |het |door de )?(?:rechtstreekse |directe )?(?:leidinggevende|manager|overste)'), 'manager'],
  // Limits and their units.
  [phrase('(?:tot|maximaal|hoogstens|ten hoogste|max\\.)', BEFORE_AMOUNT), 'up to'],
  [phrase('(?:meer dan|boven|hoger dan)', BEFORE_AMOUNT), 'over'],
  [phrase('(?:vanaf)', BEFORE_AMOUNT), 'at least'],
  [phrase('(?:per|voor een|voor elke) (?:nacht|overnachting)'), 'per night'],
  [phrase('(?:per|voor een) (?:dag|kalenderdag|reisdag)|dagelijks'), 'per day'],
  [phrase('per (?:persoon|deelnemer|genodigde|gast)'), 'per person'],
  [phrase('per maaltijd'), 'per meal'],
  [phrase('elders|in (?:alle )?andere steden'), 'elsewhere'],
  [phrase('stadstaks|stadsbelasting|toeristenbelasting|verblijfsbelasting|toeristentaks'), 'occupancy tax'],
  [phrase('inbegrepen|inclusief|incl\\.'), 'included'],
  [phrase('alcoholische dranken|alcohol'), 'alcohol'],
  [phrase('ontbijt'), 'breakfast'],
  [phrase('middagmaal|lunch'), 'lunch'],
  [phrase('avondmaal|diner'), 'dinner'],
  [phrase('maaltijden'), 'meals'],
  [phrase('maaltijd'), 'meal'],
  [phrase('eerste klasse|1e klasse|1ste klasse'), 'first class'],
  [phrase('tweede klasse|2e klasse|2de klasse'), 'second class'],
  [phrase('elke|iedere'), 'every'],
  [phrase('uitgaven|onkosten'), 'expenses'],
  [phrase('uitgave'), 'expense'],
  [phrase('werkelijke kosten'), 'actual costs'],
  [phrase('wordt|is'), 'is'],
  [phrase('worden|zijn'), 'are'],
  [phrase('of'), 'or'],
  [phrase('en'), 'and'],
  [phrase('van'), 'of'],
  [phrase('voor een'), 'for a'],
  [phrase('voor'), 'for'],
  [phrase('een'), 'a'],
];
