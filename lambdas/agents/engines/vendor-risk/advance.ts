/**
 * Money before delivery written as a practitioner reads it beyond rule 7's fixed phrases (RULES.md rule 7): a share
 * of an order, or money the vendor must receive, before the goods leave ("35% of the December order, which we need
 * to receive before the goods are dispatched"), and the same in the languages vendors write in: Spanish ("percibir
 * antes de la expedición", "pago anticipado", "por adelantado"), French ("acompte", "paiement d'avance", "avant
 * livraison"), German ("Vorauskasse", "Anzahlung von 30 %", "vor Lieferung"), Italian ("pagamento anticipato",
 * "prima della spedizione"). A timing alone ("inspection before dispatch") demands nothing: the money must be named
 * in the same sentence, before the timing. A clause that negates it ("keine Vorauskasse", "sin anticipo") is no
 * demand.
 */
import { answerIsNo, answerLines } from './answers.js';
import { lineOf, matches, negatedBefore, type Finding } from './text.js';

/** Words that name an advance by themselves. */
const ADVANCE = new RegExp(
  '(?<![\\p{L}])(?:' +
    'pre-?pago|pago\\s+anticipado|por\\s+adelantado|anticipo\\s+(?:del?\\s+)?\\d{1,3}\\s*%|\\d{1,3}\\s*%\\s+(?:de\\s+)?anticipo' +
    '|vorauskasse|vorkasse|vorauszahlung|anzahlung\\s+(?:von\\s+|in\\s+hohe\\s+von\\s+)?\\d{1,3}\\s*%|\\d{1,3}\\s*%\\s+anzahlung' +
    "|paiement\\s+(?:d'avance|anticipe|a\\s+la\\s+commande)|acompte\\s+(?:de\\s+)?\\d{1,3}\\s*%|\\d{1,3}\\s*%\\s+d'acompte" +
    '|pagamento\\s+anticipato|anticipo\\s+del\\s+\\d{1,3}\\s*%|acconto\\s+(?:del\\s+)?\\d{1,3}\\s*%' +
    // The advance named by one word, as vendors write it in their own language: Spanish and Italian "anticipo",
    // Portuguese "pagamento antecipado" / "adiantamento", French "acompte", Italian "acconto", Polish "przedpłata" /
    // "zaliczka" / "z góry", Turkish "peşin" / "avans", Dutch "vooruitbetaling", German "im Voraus", Swedish
    // "förskott", Russian "предоплата" / "аванс".
    '|anticipos?|pagamento\\s+(?:\\d{1,3}\\s*%\\s+)?(?:antecipado|adiantado)|\\d{1,3}\\s*%\\s+(?:antecipado|adiantado|anticipado|antecipadamente|anticipadamente)' +
    '|(?:pagar|pago|pagos|pagamentos?)\\s+(?:\\p{L}+\\s+)?(?:antecipadamente|anticipadamente)|adiantamentos?|acomptes?|acconto' +
    '|przedp[łl]at\\p{L}*|zaliczk\\p{L}*(?!\\s+na\\s+(?:poczet\\s+)?podat)|p[łl]atnos[cć]\\p{L}*\\s+z\\s+gory|\\d{1,3}\\s*%\\s+z\\s+gory' +
    '|pe[sş]in(?:\\s+(?:odeme|odemeli|ödeme))?|avans(?:ı|i)?|vooruitbetaling|(?:zahlung|bezahlung|betrag|zahlbar)\\s+im\\s+voraus|vorab(?:zahlung|uberweisung)|f[oö]rskott\\p{L}*' +
    // A share due when the order is placed or confirmed: "100% na aprovação do pedido", "50% al confirmar la
    // orden", "30 % à la commande", "100% przy zamówieniu", "50 % bei Auftragserteilung", "100% all'ordine".
    '|\\d{1,3}\\s*%\\s+(?:[\\p{L}.]+\\s+){0,3}?(?:na|no|ao|al|a|en|con|przy|po|bei|mit|all\'|alla|all)\\s*(?:(?:la|el|le|o|a|der|dem)\\s+)?' +
    '(?:(?:aprovacao|confirmacao|colocacao|assinatura|emissao|confirmar|confirmacion|firma|colocacion|emision|confirmation|signature|potwierdzeniu|z[łl]ozeniu|auftragserteilung|bestatigung|auftragsbestatigung|conferma)\\s+(?:(?:do|da|del|de\\s+la|de|du|des|der|dell\'|della|la|el|le|o|a)\\s*)?)?' +
    '(?:pedido|orden|encomenda|zamowieni\\p{L}*|commande|bestellung|auftrag\\p{L}*|ordine|siparis\\p{L}*)' +
    '|предоплат\\p{L}*|аванс\\p{L}*|оплат\\p{L}*\\s+вперед' +
    ')(?![\\p{L}])' +
    // Japanese, Korean and Chinese write it without spaces: 前払い, 前金, 선금, 선급금, 선불, 预付款, 款到发货.
    `|(?:前払い?|前金|先払い?|선금|선급금|선불|선지급|预付款?|預付款?|款到发货|先款后货)`.normalize('NFD'),
  'giu',
);

/** The goods leaving: before dispatch, shipment or delivery, in each language. */
const BEFORE_DISPATCH = new RegExp(
  '(?<![\\p{L}])(?:' +
    'before\\s+(?:we|they|the\\s+(?:mill|factory|plant|warehouse))\\s+(?:can\\s+|will\\s+|could\\s+)?(?:release|ship|dispatch|deliver|load)' +
    '|before\\s+(?:the\\s+)?(?:goods|order|items?|material|shipment)\\s+(?:(?:is|are|were|is\\s+being|are\\s+being|can\\s+be|will\\s+be)\\s+)?(?:dispatched|shipped|delivered|released|sent)' +
    '|antes\\s+de(?:l|\\s+la|\\s+el)?\\s+(?:expedicion|entrega|envio|despacho|enviar|entregar|expedir)' +
    "|avant\\s+(?:l'|la\\s+|le\\s+)?(?:expedition|livraison|envoi)" +
    '|vor\\s+(?:der\\s+|dem\\s+)?(?:lieferung|versand|auslieferung|verladung)' +
    '|prima\\s+(?:della|dell\'|di)\\s*(?:spedizione|consegna|invio)' +
    // Portuguese, Polish, Turkish: "antes do envio / da entrega", "przed wysyłką / dostawą", "sevkiyattan önce".
    '|antes\\s+(?:da|do|de)\\s+(?:entrega|envio|embarque|expedicao|despacho|faturamento|producao|fabricacao|compra)' +
    '|przed\\s+(?:wysy[łl]k\\p{L}*|dostaw\\p{L}*|realizacj\\p{L}*|wydaniem)|(?:sevkiyat|teslimat|sevk|uretim)(?:tan|ten|dan|den)\\s+once' +
    ')(?![\\p{L}])',
  'giu',
);

/** Money named: a share, an amount, a payment word in any of the languages above. */
const MONEY =
  /(?<![\p{L}])(?:\d{1,3}\s*%|(?:eur|usd|gbp|chf)\s*\d|pay|paid|payment|receive|received|remit|remitted|amount|funds|transferred|transfer|wire|deposit|pago|pagar|abono|abonar|percibir|cobrar|importe|transferencia|paiement|payer|virement|regler|montant|zahlung|zahlen|bezahlen|uberweisung|uberweisen|betrag|pagamento|pagare|bonifico|importo|pix|deposito|p[łl]atnos[cć]\p{L}*|zap[łl]at\p{L}*|wp[łl]at\p{L}*|przelew\p{L}*|odeme\p{L}*|havale)(?![\p{L}])/iu;
/** A sentence end: the money and the timing must be read in one sentence. A form's field line is a sentence of its own. */
const SENTENCE_END = /[.!?;](?=\s)|\n\s*\n|(?<=^|\n)[^\n:]{1,40}:[ \t]*\S[^\n]*\n/g;
/** Negated after it, as German and Romance languages say it: "Vorauskasse nicht erforderlich", "anticipo no requerido". */
const NOT_REQUIRED =
  /^\s*(?:(?:is|ist|es|est|e)\s+)?(?:not|nicht|no|non|pas|nao)\s+(?:required|needed|necessary|erforderlich|notwendig|vorgesehen|necesario|requerido|requis|necessaire|richiesto|necessario|obrigatorio)/iu;

export function findAdvanceAbroad(text: string): Finding | undefined {
  for (const m of matches(ADVANCE, text)) {
    if (negatedBefore(text, m.index, true) || NOT_REQUIRED.test(text.slice(m.index + m[0].length, m.index + m[0].length + 40))) continue;
    if (answeredNo(text, m.index, m.index + m[0].length)) continue;
    return found(text, m);
  }
  for (const m of matches(BEFORE_DISPATCH, text)) {
    const window = text.slice(Math.max(0, m.index - 240), m.index);
    let from = 0;
    for (const e of matches(SENTENCE_END, window)) from = e.index + e[0].length;
    if (!MONEY.test(window.slice(from))) continue;
    if (negatedBefore(text, m.index, true)) continue;
    return found(text, m);
  }
  return undefined;
}

const found = (text: string, m: RegExpExecArray): Finding => ({
  detail: `"${m[0].replace(/\s+/g, ' ')}" ("${lineOf(text, m.index)}")`,
  at: m.index,
  end: m.index + m[0].length,
});

/**
 * A form that asks about money before delivery and is answered no: "Deposit or prepayment required? No", "Advance
 * payment: None", "Prepayment required   [ ] Yes [x] No", "Anticipo: 0 %". The words at [start, end) must sit in the
 * question or label (short, at the start of its line, closed by "?", ":", a tab, a bar or a column gap), and its
 * answer — the rest of the line, else the lines under it — must be a clean no. "No, but 30% on order" is no clean no,
 * and a label answered with terms ("Advance payment: 50%") is a demand.
 */
const LABEL_END = /^[^\n?:|\t.;]{0,40}?(?:\?|:|\t|\||\s{3,})/u;
export function answeredNo(text: string, start: number, end: number): boolean {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const qa = jsonAnswer(text, lineStart, start, end);
  if (qa !== undefined) return answerIsNo(qa) || noThenCredit(qa);
  let before = text.slice(lineStart, start);
  // A record exported a field a row ("Finances;Acompte demandé;Non"): the label is the cell after the section's.
  const cell = /^[^;\n]{1,40};\s*(?=[^;]*$)/u.exec(before);
  if (cell) before = before.slice(cell[0].length);
  // The label starts its line (a numbering or a bullet aside) and says nothing else before the words.
  if (before.length > 60 || /[?:|\t.;]/.test(before.replace(/^\s*(?:[\p{L}]?\d+(?:\.\d+)*[.)]?|[-*•·])\s*/u, ''))) return false;
  const label = (cell ? /^[^\n?:|\t.;]{0,40}?;/u : LABEL_END).exec(text.slice(end));
  if (!label) return false;
  const nl = text.indexOf('\n', end);
  // A JSON or CSV export quotes its values: '"prepayment": "none",' answers as 'Prepayment: none' does.
  const rest = text
    .slice(end + label[0].length, nl < 0 ? text.length : nl)
    .replace(/^[\s*"']+/, '')
    .replace(/["']\s*,?\s*$/, '');
  if (rest !== '') return answerIsNo(rest) || /^\s*0\s*%\s*\.?\s*$/.test(rest) || noThenCredit(rest) || notRequired(rest) || noThenNote(rest);
  const under = answerLines(text, nl < 0 ? text.length : nl);
  return under.length > 0 && answerIsNo(under.join(' '));
}

/** "Not required", "None required", "Not applicable", "Nicht erforderlich", "No requerido", "Gerekmez" as the answer. */
const NOT_REQUIRED_ANSWER = new RegExp(
  `^\\s*(?:${NOT_REQUIRED.source.replace(/^\^\\s\*/, '')}|none\\s+required|nothing\\s+(?:required|due)|gerekmez|gerekmiyor|nie\\s+(?:jest\\s+)?wymagan\\p{L}*|не\\s+требуется|불필요|不要)\\s*[.!]?\\s*$`.normalize('NFD'),
  'iu',
);
const notRequired = (answer: string) => NOT_REQUIRED_ANSWER.test(answer);

/**
 * "Yok / None. (Tooling is invoiced on approval, not in advance.)": a clean no, then a note of its own. The no
 * answers the label; the note is read by the scan as any other sentence is, so here it must only not turn the
 * answer: no share, no "but" / "except", and every advance word it names denied in its own clause.
 */
const NOTE_TURNS = /%|(?<![\p{L}])(?:but|except|however|unless|only|pero|salvo|excepto|mas|porem|ale|aber|mais|sauf|ma|tranne|ancak|fakat)(?![\p{L}])/iu;
const NOTE_ADVANCE = /(?<![\p{L}])(?:advance|up-?front|pre-?pa\p{L}*|deposit|before|prior|anticip\p{L}*|antecip\p{L}*|adiant\p{L}*|acompte|acconto|vorkasse|vorauszahlung|anzahlung|przedp\p{L}*|zaliczk\p{L}*|avans\p{L}*|pesin)(?![\p{L}])/giu;
function noThenNote(answer: string): boolean {
  const stop = /[.;](?=\s|$)|\s\(/.exec(answer);
  if (!stop || !answerIsNo(answer.slice(0, stop.index))) return false;
  const note = answer.slice(stop.index);
  if (NOTE_TURNS.test(note)) return false;
  for (const m of matches(NOTE_ADVANCE, note)) if (!negatedBefore(note, m.index)) return false;
  return true;
}

/**
 * "None; invoice on delivery, Net 30", "No - net 45 days from invoice": a no followed only by the credit terms the
 * vendor gives instead (paid after the goods come). Anything that names money before delivery, a share, or turns
 * ("but", "except") keeps the answer from being a no.
 */
const NO_THEN = /^\s*(?:no|none|nil|n\/?a|not\s+required)\s*[,;:-]\s*(.+)$/iu;
const CREDIT_TERMS =
  /(?<![\p{L}])(?:net\s*\d{1,3}|\d{1,3}\s+days?|(?:on|upon|after)\s+(?:delivery|receipt|invoice)|invoiced?\s+(?:on|upon|after)\s+(?:delivery|completion|shipment)|end\s+of\s+(?:the\s+)?month)(?![\p{L}])/iu;
const NOT_CREDIT =
  /%|(?<![\p{L}])(?:but|except|however|unless|only|advance|deposit|pre-?pay\w*|up-?front|before|prior|order|signing|cod|cash)(?![\p{L}])/iu;
function noThenCredit(answer: string): boolean {
  const m = NO_THEN.exec(answer);
  return !!m && CREDIT_TERMS.test(m[1]) && !NOT_CREDIT.test(m[1]);
}

/**
 * A form exported as JSON pairs each question with its answer in one object: '{ "q": "Do you require advance
 * payment?", "a": "No" }', '"question": …, "answer": …', on one line or one key a line. The words at [start, end) in the question take that answer.
 */
const JSON_QA = /"(?:q|question|label|prompt|field)"\s*:\s*"([^"\n]*)"\s*,\s*"(?:a|answer|value|response)"\s*:\s*"([^"\n]*)"/giu;
function jsonAnswer(text: string, lineStart: number, start: number, end: number): string | undefined {
  // The object may be printed one key a line: read on to its closing brace.
  const close = text.indexOf('}', start);
  const line = text.slice(lineStart, close < 0 ? Math.min(text.length, start + 600) : close);
  for (const m of line.matchAll(JSON_QA)) {
    const q = lineStart + m.index! + m[0].indexOf('"', m[0].indexOf(':')) + 1;
    if (start >= q && end <= q + m[1].length) return m[2];
  }
  return undefined;
}
