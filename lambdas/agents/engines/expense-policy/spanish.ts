/**
 * A Spanish policy (normativa de viajes y dietas in Spain, política de viáticos in Mexico and Latin America) states the
 * rule forms an English one does: limits per night, day, person or meal ("con un máximo de 95,00 € por noche", "hasta
 * $800.00 MXN por día por persona"), receipts ("debe adjuntar factura o ticket", "con su justificante", "CFDI"),
 * exemptions ("sin necesidad de presentar tickets"), refusals ("no se reembolsan", "gastos no reembolsables", "no se
 * autorizan") and approvals ("salvo autorización previa por escrito"). Each sentence is read through this glossary
 * into those English forms; the sentence cited stays the Spanish one. Anything else stays Spanish and is read by
 * nothing. Mexican amounts ("$1,900.00") are read by their own shape (glossary.ts).
 */
import { BEFORE_AMOUNT, phrase } from './glossary.js';

export const SPANISH_WORDS = ['los', 'las', 'el', 'y', 'es', 'del', 'por', 'para', 'con', 'una', 'que', 'se', 'al', 'gastos', 'hasta', 'sin', 'cuando', 'más', 'debe', 'deberá', 'serán', 'cada', 'en', 'o', 'u', 'su', 'sus', 'dietas', 'viáticos'];

export const SPANISH: [RegExp, string][] = [
  // "$1,900.00 MXN", "$800 pesos": a dollar sign before Mexican pesos is the peso's, not the US dollar.
  [/\$\s?(\d[\d.,]*)\s?(?:MXN|M\.N\.|pesos(?: mexicanos)?)(?![\p{L}])/giu, 'MXN $1'],
  // Refusals.
  [phrase('no (?:se )?(?:reembolsa(?:n|rá|rán)?|abona(?:n|rá|rán)?|paga(?:n|rá|rán)?|autoriza(?:n|rá|rán)?|admite(?:n)?|aceptan?)|no (?:son|es|será|serán) (?:reembolsables?|reembolsad[oa]s?|abonad[oa]s?|autorizad[oa]s?)|(?:gastos )?no reembolsables?|(?:gastos )?no autorizados|(?:corren|corre|serán|será) (?:a|por) cuenta del (?:empleado|colaborador|trabajador)'), 'not reimbursable'],
  [phrase('se (?:reembolsa(?:n|rá|rán)?|abona(?:n|rá|rán)?|paga(?:n|rá|rán)?|liquida(?:n)?)|reembolsables?|reembolsad[oa]s?'), 'reimbursed'],
  // Receipts: "sin necesidad de presentar tickets", "con su ticket", "con justificante", "CFDI".
  [phrase('sin (?:necesidad de )?(?:presentar|aportar|adjuntar) (?:tickets|justificantes|facturas|comprobantes|recibos)(?: de restaurante)?'), 'no receipts are required'],
  [phrase('(?:con|contra|mediante|previa presentación de(?:l| la)?) (?:su |sus |el |la |los |las )?(?:ticket|tickets|justificante|justificantes|factura|facturas|comprobante|comprobantes|recibo|recibos|cfdi)'), 'against a receipt'],
  [phrase('(?:tickets|justificantes|facturas|comprobantes|recibos|cfdis)(?: originales)?(?: de restaurante)?'), 'receipts'],
  [phrase('(?:ticket|justificante|factura|comprobante|recibo|cfdi(?: \\d\\.\\d)?)(?: original)?'), 'receipt'],
  [phrase('(?:debe|deben|deberá|deberán) (?:adjuntar(?:se)?|aportar(?:se)?|presentar(?:se)?|contar con)'), 'must attach'],
  [phrase('(?:debe|deben|deberá|deberán)'), 'must'],
  [phrase('obligatori[oa]s?|necesari[oa]s?|requerid[oa]s?|imprescindibles?'), 'required'],
  [phrase('salvo|a menos que'), 'unless'],
  [phrase('excepto|a excepción de|con excepción de|distinto de'), 'except'],
  [phrase('sin'), 'without'],
  [phrase('solo|sólo|solamente|únicamente|exclusivamente'), 'only'],
  // Approvals.
  [phrase('(?:autorización|aprobación) (?:previa )?(?:por escrito|escrita)|(?:autorización|aprobación) previa|previa (?:autorización|aprobación)'), 'prior approval'],
  [phrase('autorización|aprobación'), 'approval'],
  [phrase('(?:del |el |por el )?(?:responsable directo|jefe directo|jefe inmediato|superior inmediato|responsable)'), 'manager'],
  // Limits and their units.
  [phrase('(?:hasta|con un máximo de|máximo de|máximo|como máximo|con un tope de|tope de|límite de|no más de)', BEFORE_AMOUNT), 'up to'],
  [phrase('(?:superior(?:es)? a|más de|por encima de|que excedan? de|que supere(?:n)?)', BEFORE_AMOUNT), 'over'],
  [phrase('a partir de', BEFORE_AMOUNT), 'at least'],
  [phrase('€ ?/ ?km|por (?:kilómetro|km)(?: recorrido)?'), 'per km'],
  [phrase('por (?:noche|pernoctación|pernocta)'), 'per night'],
  [phrase('por día|diari[oa]s?|al día'), 'per day'],
  [phrase('por (?:persona|comensal|asistente|invitado|colaborador|empleado)'), 'per person'],
  [phrase('por comida'), 'per meal'],
  [phrase('iva incluido|con iva incluido|impuestos incluidos'), 'including tax'],
  [phrase('resto de (?:ciudades|localidades|destinos)|otras ciudades|demás ciudades|en el resto'), 'elsewhere'],
  [phrase('tasa turística|impuesto (?:turístico|sobre estancias|de hospedaje)'), 'occupancy tax'],
  [phrase('bebidas alcohólicas|alcohol'), 'alcohol'],
  [phrase('propinas?'), 'tip'],
  [phrase('desayunos?'), 'breakfast'],
  [phrase('almuerzos?|comida del mediodía'), 'lunch'],
  [phrase('cenas?'), 'dinner'],
  [phrase('alimentos|comidas|manutención'), 'meals'],
  [phrase('alojamiento|hospedaje|hoteles|hotel'), 'hotel'],
  [phrase('lavandería'), 'laundry'],
  [phrase('multas(?: e infracciones)?|infracciones|sanciones'), 'fines'],
  [phrase('(?:gastos |cualquier gasto )(?:de carácter )?personal(?:es)?'), 'personal expenses'],
  [phrase('aparcamientos?|estacionamientos?'), 'parking'],
  [phrase('peajes?'), 'tolls'],
  [phrase('kilometraje'), 'mileage'],
  [phrase('primera clase'), 'first class'],
  [phrase('clase (?:turista|económica)|tarifa económica(?: básica)?'), 'economy class'],
  [phrase('(?:en )?viajes de menos de'), 'on trips under'],
  [phrase('noches'), 'nights'],
  [phrase('tod[oa]s? (?:los |las )?|cada|cualquier'), 'every '],
  [phrase('gastos'), 'expenses'],
  [phrase('gasto'), 'expense'],
  [phrase('y|e'), 'and'],
  [phrase('o|u'), 'or'],
  [phrase('es'), 'is'],
  [phrase('son'), 'are'],
  [phrase('en', '(?=\\s\\p{Lu})'), 'in'],
];
