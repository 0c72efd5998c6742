/**
 * An Italian policy (regolamento trasferte, rimborso spese) states the rule forms an English one does: limits per
 * night or meal ("fino a EUR 35 per pasto", "EUR 130 a notte"), receipts required ("ogni spesa deve essere supportata
 * da giustificativo"), refusals ("non sono rimborsati alcolici", "spese non rimborsabili: …") and approvals
 * ("salvo autorizzazione preventiva scritta del Direttore"). Each sentence is read through this glossary into those
 * English forms; the sentence cited stays the Italian one. Anything else stays Italian and is read by nothing.
 */
import { BEFORE_AMOUNT, phrase } from './glossary.js';

export const ITALIAN_WORDS = ['il', 'gli', 'della', 'delle', 'dei', 'degli', 'del', 'è', 'sono', 'non', 'alla', 'alle', 'nel', 'nella', 'ogni', 'che', 'anche', 'oppure', 'spese', 'rimborso'];

export const ITALIAN: [RegExp, string][] = [
  // Refusals.
  // "Non sono in alcun caso rimborsabili", "in nessun caso sono rimborsate": a refusal, whatever the emphasis.
  [phrase('non (?:è|sono|viene|vengono|saranno|sarà) (?:in (?:alcun|nessun) caso|mai) (?:rimborsabil[ei]|rimborsat[aeio]|ammess[aeio])|in (?:nessun|alcun) caso (?:è|sono|viene|vengono) (?:rimborsabil[ei]|rimborsat[aeio]|ammess[aeio])'), 'not reimbursable'],
  [phrase('(?:non (?:è|sono|viene|vengono) (?:rimborsabil[ei]|rimborsat[aeio]|ammess[aeio]))|non rimborsabil[ei]|non rimborsat[aeio]|esclus[aeio] dal rimborso'), 'not reimbursable'],
  [phrase('(?:è|sono|viene|vengono) rimborsat[aeio]|rimborsat[aeio]|rimborsabil[ei]'), 'reimbursed'],
  // Receipts.
  [phrase('(?:giustificativi|documenti giustificativi|scontrini|ricevute|fatture)(?: fiscali)?(?: originali)?'), 'receipts'],
  [phrase('(?:giustificativo|documento giustificativo|scontrino|ricevuta|fattura)(?: fiscale)?(?: originale)?'), 'receipt'],
  [phrase('(?:deve|devono) essere (?:supportat[aeio]|accompagnat[aeio]|documentat[aeio]) da'), 'must be supported by'],
  [phrase('(?:deve|devono) essere'), 'must be'],
  [phrase('obbligatori[oa]?|necessari[oa]?|richiest[oa]'), 'required'],
  [phrase('salvo|a meno che'), 'unless'],
  [phrase('eccetto|tranne|ad eccezione (?:di|del|della|dei|delle)'), 'except'],
  [phrase('senza'), 'without'],
  [phrase('solo|soltanto|esclusivamente|unicamente'), 'only'],
  // Approvals.
  [phrase('(?:autorizzazione|approvazione) (?:preventiva|previa)(?: scritta)?|previa (?:autorizzazione|approvazione)(?: scritta)?'), 'prior approval'],
  [phrase('autorizzazione|approvazione'), 'approval'],
  [phrase('(?:è|sono) soggett[aeio] a'), 'is subject to'],
  [phrase('(?:del |dal |il )?responsabile(?: diretto)?'), 'manager'],
  // Limits and their units.
  [phrase('(?:fino a|fino ad|massimo|al massimo|max\\.?)', BEFORE_AMOUNT), 'up to'],
  [phrase('(?:oltre|superiore a|superiori a|più di|eccedente)', BEFORE_AMOUNT), 'over'],
  [phrase('a partire da', BEFORE_AMOUNT), 'at least'],
  [phrase('(?:a|per) (?:notte|pernottamento)'), 'per night'],
  [phrase('(?:al|per|a) giorno|giornalier[oia]'), 'per day'],
  [phrase('(?:a|per) persona|per partecipante|a testa|pro capite'), 'per person'],
  [phrase('(?:a|per) pasto'), 'per meal'],
  [phrase('altrove|(?:in )?altre località'), 'elsewhere'],
  [phrase('imposta di soggiorno|tassa di soggiorno'), 'occupancy tax'],
  [phrase('oltre (?:il|al) limite|in aggiunta al limite'), 'in addition to the limit'],
  [phrase('a parte'), 'separately'],
  [phrase('incluse|inclusa|inclusi|incluso|compres[aeio]'), 'included'],
  [phrase('bevande analcoliche'), 'soft drinks'],
  [phrase('alcolici|bevande alcoliche|alcol|alcool'), 'alcohol'],
  [phrase('prima colazione|colazione'), 'breakfast'],
  [phrase('pranzo|pranzi'), 'lunch'],
  [phrase('cena|cene'), 'dinner'],
  [phrase('pasti'), 'meals'],
  [phrase('pasto'), 'meal'],
  [phrase('lavanderia'), 'laundry'],
  // The hotel room's fridge bar is sold as "frigobar" in Italy and Brazil: the minibar.
  [phrase('(?:consumazioni (?:del |dal )?)?(?:frigobar|frigo-bar|minibar)(?:\\s?/\\s?(?:frigobar|minibar))?'), 'minibar'],
  [phrase('multe|contravvenzioni|sanzioni'), 'fines'],
  [phrase('spese personali'), 'personal expenses'],
  [phrase('(?:per|nelle|su) trasferte (?:inferiori a|di meno di|sotto)'), 'on trips under'],
  [phrase('notti'), 'nights'],
  [phrase('prima classe'), 'first class'],
  [phrase('seconda classe|classe seconda'), 'second class'],
  [phrase('ogni|ciascuna|ciascun'), 'every'],
  [phrase('spese'), 'expenses'],
  [phrase('spesa'), 'expense'],
  [phrase('né|o|oppure'), 'or'],
  [phrase('e|ed'), 'and'],
  [phrase('è'), 'is'],
  // "a Milano e Roma massimo 170,00 € a notte": "a"/"ad" before a place's name is "in".
  [/(?<![\p{L}\d])(?:a|ad)(?=\s\p{Lu})/gu, 'in'],
  [phrase('sono'), 'are'],
];
