/**
 * A Portuguese policy (política de viagens in Brazil, regulamento de ajudas de custo in Portugal) states the rule
 * forms an English one does: limits per meal, day or night ("até R$ 75,00 por refeição", "até R$ 380,00 por
 * diária"), receipts ("com comprovante", "mediante fatura", "Despesas sem comprovante não serão reembolsadas"),
 * exemptions ("não carecem de fatura"), refusals ("NÃO são reembolsáveis", "são de responsabilidade do colaborador")
 * and the mileage rate ("R$ 1,10 por quilômetro rodado", "0,40 € por quilómetro"). Each sentence is read through this
 * glossary into those English forms; "R$" is the real (BRL). The sentence cited stays the Portuguese one.
 */
import { BEFORE_AMOUNT, phrase } from './glossary.js';

export const PORTUGUESE_WORDS = ['os', 'dos', 'das', 'não', 'são', 'uma', 'pelo', 'pela', 'ao', 'é', 'em', 'despesas', 'até', 'sem', 'também', 'nos', 'às', 'do', 'da', 'na', 'no', 'ou', 'com', 'para', 'por', 'que', 'se', 'e'];

export const PORTUGUESE: [RegExp, string][] = [
  // "R$ 75,00": the Brazilian real.
  [/R\$\s?(?=\d)/gu, 'BRL '],
  // Refusals.
  [phrase('não (?:são|serão|é|será|podem ser|pode ser) (?:em nenhuma hipótese )?(?:reembolsáve(?:l|is)|reembolsad[oa]s?|pag[oa]s?|aceit[oa]s?|abonad[oa]s?)(?: em nenhuma hipótese)?|não reembolsáve(?:l|is)|(?:são|é|ficam|fica) (?:de responsabilidade|a cargo|por conta) do (?:colaborador|trabalhador|funcionário|empregado)|despesas excluídas|não se reembolsa(?:m)?'), 'not reimbursable'],
  [phrase('(?:são |é |serão |será )?(?:reembolsáve(?:l|is)|reembolsad[oa]s?|abonad[oa]s?)'), 'reimbursed'],
  // Receipts.
  [phrase('não (?:carecem|carece|necessitam|necessita|precisam|precisa) de (?:fatura|comprovante|recibo)s?'), 'need no receipt'],
  [phrase('(?:com|mediante|contra) (?:o |a |os |as )?(?:comprovante|comprovativo|fatura|recibo|nota fiscal|extrato via verde)(?:s)?(?: (?:fiscal|ou extrato via verde))?'), 'against a receipt'],
  [phrase('(?:comprovantes|comprovativos|faturas|recibos|notas fiscais|cupons fiscais)(?: fiscais)?'), 'receipts'],
  [phrase('(?:comprovante|comprovativo|fatura|recibo|nota fiscal|nf-e|nfc-e|cupom fiscal)(?: fiscal)?'), 'receipt'],
  [phrase('(?:deve|devem) ser (?:anexad[oa]s?|apresentad[oa]s?)'), 'must be attached'],
  [phrase('(?:deve|devem)'), 'must'],
  [phrase('obrigatóri[oa]s?|necessári[oa]s?|exigid[oa]s?'), 'required'],
  [phrase('salvo|a menos que'), 'unless'],
  [phrase('exceto|com exceção de|à exceção de'), 'except'],
  [phrase('sem'), 'without'],
  [phrase('somente|apenas|só|exclusivamente|unicamente'), 'only'],
  // Approvals.
  [phrase('(?:autorização|aprovação) (?:prévia|por escrito)(?: por escrito)?|prévia (?:autorização|aprovação)'), 'prior approval'],
  [phrase('autorização|aprovação|quando autorizad[oa]'), 'approval'],
  [phrase('(?:do |da |pelo |pela )?(?:gestor|gestora|superior imediato|chefia direta|chefia|diretor|diretora)'), 'manager'],
  // Limits and their units.
  [phrase('(?:até|no máximo|máximo de|limite de|limitad[oa]s? a)', BEFORE_AMOUNT), 'up to'],
  [phrase('(?:acima de|superior a|mais de)', BEFORE_AMOUNT), 'over'],
  [phrase('a partir de', BEFORE_AMOUNT), 'at least'],
  [phrase('limite diário de (?:alimentação|refeições)'), 'daily meals limit'],
  [phrase('€ ?/ ?km|por (?:quilómetro|quilômetro|km)(?: rodado| percorrido)?'), 'per km'],
  // "quando não estiver incluído na diária do hotel": the hotel's daily rate is the room rate, no daily limit.
  [phrase('quando não (?:estiver|estiverem|for|forem) incluíd[oa]s?|se não (?:estiver|for) incluíd[oa]s?'), 'when not included'],
  [phrase('(?:na |da )?diária (?:do|de) hotel'), 'in the room rate'],
  [phrase('por (?:diária|noite|pernoita|pernoite)'), 'per night'],
  [phrase('por dia|diári[oa]s?'), 'per day'],
  [phrase('por (?:pessoa|colaborador|participante|convidado)'), 'per person'],
  [phrase('por refeição'), 'per meal'],
  [phrase('iva incluído|impostos incluídos'), 'including tax'],
  [phrase('(?:nas )?demais (?:cidades|localidades)|outras (?:cidades|localidades)'), 'elsewhere'],
  [phrase('bebidas alcoólicas|álcool'), 'alcohol'],
  [phrase('café da manhã|pequeno-almoço'), 'breakfast'],
  [phrase('almoços?'), 'lunch'],
  [phrase('jantar(?:es)?'), 'dinner'],
  [phrase('refeições|alimentação'), 'meals'],
  [phrase('refeição'), 'meal'],
  [phrase('hospedagem|alojamento|hotéis|hotel'), 'hotel'],
  [phrase('frigobar|minibar'), 'minibar'],
  // "Corridas nas categorias Uber Black, Uber Comfort … NÃO são reembolsáveis": the lead names no thing itself, the
  // ride classes listed after it are the things refused.
  [phrase('(?:corridas|viagens)(?: de aplicativo)? (?:nas|na|em) categorias?'), ''],
  [phrase('incluso|inclusa|inclusos|incluído|incluída|incluídos'), 'included'],
  [phrase('com'), 'with'],
  [phrase('lavanderia|lavandaria'), 'laundry'],
  [phrase('multas(?: e coimas)?|coimas'), 'fines'],
  [phrase('despesas de natureza pessoal|despesas pessoais'), 'personal expenses'],
  [phrase('estacionamentos?'), 'parking'],
  [phrase('portagens?|pedágios?'), 'tolls'],
  [phrase('táxi|taxi'), 'taxi'],
  [phrase('quilometragem'), 'mileage'],
  [phrase('primeira classe|1\\.ª classe'), 'first class'],
  [phrase('segunda classe|2\\.ª classe|classe turística|classe econômica|classe económica'), 'second class'],
  [phrase('(?:para|em) viagens de menos de'), 'on trips under'],
  [phrase('noites'), 'nights'],
  [phrase('tod[oa]s? (?:os |as )?|cada|qualquer'), 'every '],
  [phrase('despesas'), 'expenses'],
  [phrase('despesa'), 'expense'],
  [phrase('e'), 'and'],
  [phrase('ou'), 'or'],
  [phrase('é'), 'is'],
  // "São Paulo" is a place: only the lower-case verb is "are".
  [/(?<![\p{L}])são(?![\p{L}])/gu, 'are'],
  // "nas capitais São Paulo, Rio de Janeiro e Brasília", "em Lisboa": before a place's name (its capital letter, told
  // without the case-blind flag) these are "in".
  [/(?<![\p{L}])(?:[Nn]as capitais|[Nn]as cidades de|em|no|na|nas)(?=\s\p{Lu})/gu, 'in'],
];
