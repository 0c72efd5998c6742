/**
 * A French policy (politique de remboursement des frais professionnels, note de frais) states the rule forms an
 * English one does: ceilings per meal, guest or night ("plafond 25,00 € TTC par repas", "150,00 € la nuitée"),
 * receipts ("sur présentation des justificatifs originaux", "sur justificatif"), refusals ("ne sont pas remboursées",
 * "restent à la charge du salarié"), restrictions ("n'est remboursée qu'avec l'accord écrit préalable du N+2") and the
 * mileage scale ("d x 0,636 €/km"). Each sentence is read through this glossary into those English forms; the
 * sentence cited stays the French one. Anything else stays French and is read by nothing.
 */
import { BEFORE_AMOUNT, phrase } from './glossary.js';

export const FRENCH_WORDS = ['les', 'des', 'du', 'au', 'aux', 'est', 'sont', 'une', 'pour', 'dans', 'avec', 'ne', 'pas', 'être', 'sur', 'par', 'qui', 'et', 'frais', 'leur', 'ou', 'en', 'sauf', 'selon'];

const APOS = "['’]";

export const FRENCH: [RegExp, string][] = [
  // "n'est remboursé que si", "ne sont remboursées qu'avec": reimbursed only (if, with).
  [phrase(`n${APOS}(?:est|sont) (?:pas )?(?:rembours[ée]e?s?|pris(?:e|es)? en charge|autorisée?s?) qu(?:e |${APOS})|ne (?:sont|seront|sera) (?:rembours[ée]e?s?|pris(?:e|es)? en charge|autorisée?s?) qu(?:e |${APOS})`), 'is reimbursed only '],
  // Refusals.
  [phrase(`(?:ne |n${APOS})(?:sont|est|seront|sera) (?:en aucun cas |jamais |pas )(?:rembours[ée]e?s?|pris(?:e|es)? en charge|remboursables?|admise?s?|acceptée?s?)|non[- ]remboursables?|(?:restent|reste|sont|est) à la charge (?:du salarié|de la salariée|du collaborateur|de l${APOS}employé|du voyageur)|(?:sont |est )?exclue?s? du remboursement|dépenses exclues|frais exclus`), 'not reimbursable'],
  [phrase('(?:sont |est |seront |sera )?(?:rembours[ée]e?s?|pris(?:e|es)? en charge)|remboursables?'), 'reimbursed'],
  // Receipts: "sur présentation des justificatifs originaux", "sur justificatif", "ne constitue pas un justificatif".
  [phrase('sur (?:présentation (?:des |d[\'’]une? |du |de la )?)?(?:justificatifs?|factures?|tickets? de caisse|reçus?)(?: originau?x?| d[\'’]origine)?'), 'against a receipt'],
  [phrase('ne constituen?t? pas (?:un |une |des )?(?:justificatifs?|pièces? justificatives?)'), 'is not a receipt'],
  [phrase('(?:justificatifs|pièces justificatives|factures|tickets de caisse|reçus|notes)(?: originau?x)?'), 'receipts'],
  [phrase('(?:justificatif|pièce justificative|facture|ticket de caisse|reçu)(?: original| d[\'’]origine)?'), 'receipt'],
  [phrase('relevé de (?:carte bancaire|carte|compte)'), 'card statement'],
  [phrase('ticket (?:cb|carte bancaire|de carte)|facturette'), 'card slip'],
  [phrase('(?:doit|doivent) être (?:joint|jointe|joints|jointes|fourni|fournie|fournis|fournies)'), 'must be attached'],
  [phrase('obligatoires?|exigée?s?|requise?s?'), 'required'],
  [phrase(`à l${APOS}exception (?:de la |du |des |de l${APOS}|de )|sauf|hormis|hors`), 'except'],
  [phrase('sans'), 'without'],
  [phrase('uniquement|seulement|exclusivement'), 'only'],
  // Approvals.
  [phrase(`(?:l${APOS}|un |une )?(?:accord|autorisation|validation|approbation) (?:écrite? )?préalable(?: écrite?)?|(?:l${APOS}|un |une )?(?:accord|autorisation|validation|approbation) (?:écrite? )?(?:préalable )?`), 'prior approval '],
  [phrase(`(?:du |de son |de la )?(?:responsable hiérarchique|manager|supérieur hiérarchique|n\\+[12])`), 'manager'],
  // Limits and their units.
  [phrase('(?:plafond (?:de|fixé à)|limite de|plafond|plafonné(?:e|s|es)? à|jusqu[\'’]à|dans la limite de|maximum|au maximum|max\\.?|limité(?:e|s|es)? à)', BEFORE_AMOUNT), 'up to'],
  [phrase('(?:au-delà de|plus de|supérieure? à|supérieurs? à|dépassant)', BEFORE_AMOUNT), 'over'],
  [phrase('à partir de', BEFORE_AMOUNT), 'at least'],
  [phrase('€ ?/ ?km|euros? par (?:kilomètre|km)|par (?:kilomètre|km)'), '€ per km'],
  [phrase('par (?:nuit|nuitée)|la nuitée|la nuit'), 'per night'],
  [phrase('par (?:jour|journée)|quotidien(?:ne)?s?'), 'per day'],
  [phrase('par (?:personne|convive|invité|participant|salarié)'), 'per person'],
  [phrase('par repas'), 'per meal'],
  [phrase('ttc|toutes taxes comprises'), 'including tax'],
  [phrase('autres villes|ailleurs|province|autres localités|reste de la france'), 'elsewhere'],
  [phrase('taxe de séjour'), 'occupancy tax'],
  [phrase('boissons alcoolisées|alcools?'), 'alcohol'],
  [phrase('petits?-déjeuners?'), 'breakfast'],
  [phrase('déjeuners?'), 'lunch'],
  [phrase('dîners?'), 'dinner'],
  // "Repas pris seul en déplacement", "Repas d'affaires avec invités extérieurs": a meal eaten alone on a trip, a
  // business meal with guests (scope.ts tells them apart by the number of people).
  [phrase('pris seule?s?|(?<=repas\s)seule?s?'), 'alone'],
  [phrase('en déplacement|en mission'), 'while travelling'],
  [phrase(`d${APOS}affaires`), 'business'],
  [phrase('invités extérieurs|invités externes|invités'), 'external guests'],
  [phrase('salariés compris|collaborateurs compris'), 'employees included'],
  [phrase('avec'), 'with'],
  [phrase('repas'), 'meal'],
  // "Nuitée (chambre + petit-déjeuner) : Paris 150,00 €": a night's stay is the hotel's rate per night.
  [phrase('nuitées?'), 'hotel per night'],
  [phrase('hébergements?|hôtels?'), 'hotel'],
  [phrase('blanchisserie|pressing'), 'laundry'],
  [phrase('films payants'), 'movies'],
  [phrase('amendes|contraventions|procès-verbaux'), 'fines'],
  [phrase('dépenses personnelles|frais personnels'), 'personal expenses'],
  [phrase('stationnements?'), 'parking'],
  [phrase('péages?'), 'tolls'],
  [phrase('indemnités kilométriques|frais kilométriques'), 'mileage'],
  [phrase('(?:1(?:ère|re)|première) classe'), 'first class'],
  [phrase('(?:2(?:nde|de|e)|seconde|deuxième) classe'), 'second class'],
  [phrase('(?:sur|pour|lors des) (?:déplacements|séjours|missions) de moins de'), 'on trips under'],
  [phrase('nuits'), 'nights'],
  [phrase('tout|toute|tous|toutes|chaque'), 'every'],
  [phrase('dépenses|frais'), 'expenses'],
  [phrase('dépense'), 'expense'],
  [phrase('ou'), 'or'],
  [phrase('et'), 'and'],
  [phrase('est'), 'is'],
  [phrase('sont'), 'are'],
  [phrase('à|en', '(?=\\s\\p{Lu})'), 'in'],
];
