/**
 * A Japanese policy (旅費規程, 出張旅費規程, 経費精算規程) states the rule forms an English one does: limits per night
 * ("1泊当たりの上限額 … 12,000円"), receipts ("すべての支出について領収書を添付する"), their exemptions ("電車・バスの運賃で
 * 1件3,000円未満のものは、領収書の添付を要しない"), refusals ("精算しない", "不支給", "精算対象外"), and classes ("新幹線は普通車指定席
 * とする", "グリーン車"). Japanese has no spaces between words and ends its sentences with "。": each phrase is replaced
 * by its English form between spaces, amounts in yen ("12,000円", "¥2,860") become "JPY 12000", and what is left stays
 * Japanese, read by nothing. The sentence cited stays the Japanese one.
 */
import { englishNumbers, inScript } from './glossary.js';

/** Kana: a text where they are a good share of the letters is Japanese (Chinese has none). */
export const JAPANESE_SCRIPT = /[\p{Script=Hiragana}\p{Script=Katakana}]/gu;

const JAPANESE: [RegExp, string][] = [
  // Amounts in yen, with what is said of them after the number.
  [/(?:¥|￥)\s?(\d+)(?:-|円)?/gu, ' JPY $1 '],
  [/(\d+)\s?円\s?(?:未満|を下回る)/gu, ' under JPY $1 '],
  [/(\d+)\s?円\s?(?:以上|を超える)/gu, ' JPY $1 or more '],
  [/(\d+)\s?円\s?(?:以内|まで|以下)/gu, ' up to JPY $1 '],
  [/(\d+)\s?円/gu, ' JPY $1 '],
  // Refusals and payment.
  // "飲食代は別途精算しない": meals are paid by the allowance, not refused with it (read before the refusals).
  [inScript('は別途精算しない|は別途支給しない|別途精算しない'), ' are paid by the per diem '],
  [inScript('精算(?:し|でき)(?:ない|ません)|支給(?:し|でき)(?:ない|ません)|不支給|精算対象外|支給対象外|認め(?:ない|られない|ません)|本人負担とする|自己負担とする'), ' not reimbursable '],
  [inScript('を支給する|を精算する|支給する|精算する'), ' reimbursed '],
  // Receipts.
  [inScript('の添付を要しない|を不要とする|は不要|不要とする|の提出を要しない'), ' receipt not required '],
  [inScript('の添付を要する|を添付する|を必ず添付|必ず領収書を添付する|の提出を要する|を提出する'), ' must be attached '],
  [inScript('領収書|レシート|領収証'), ' receipt '],
  [inScript('添付がない|添付のない|なし'), ' without '],
  [inScript('すべての(?:支出|経費)|全ての(?:支出|経費)|全(?:支出|経費)'), ' every expense '],
  [inScript('支出|経費|費用'), ' expense '],
  // Approvals.
  [inScript('事前承認|事前の承認'), ' prior approval '],
  [inScript('承認'), ' approval '],
  [inScript('所属長|上長|部長'), ' manager '],
  // Limits and their units.
  [inScript('上限額|上限'), ' limit up to '],
  [inScript('1泊(?:当たり|あたり|につき)?'), ' per night '],
  [inScript('1日(?:当たり|あたり|につき)|/日'), ' per day '],
  [inScript('1人(?:当たり|あたり|につき)'), ' per person '],
  [inScript('1件(?:当たり|あたり|につき)?'), ' per item '],
  // Categories and classes.
  [inScript('グリーン車|ファーストクラス|ビジネスクラス'), ' first class '],
  [inScript('普通車指定席|普通車|普通席|エコノミークラス'), ' economy class '],
  [inScript('宿泊料|宿泊費|宿泊'), ' hotel '],
  [inScript('タクシー'), ' taxi '],
  [inScript('新幹線|電車|鉄道|地下鉄|在来線'), ' train '],
  [inScript('バス'), ' bus '],
  [inScript('運賃|乗車券'), ' fare '],
  [inScript('航空機|飛行機|航空券'), ' flight '],
  [inScript('日当'), ' per diem '],
  [inScript('飲食代|食事代|食事'), ' meals '],
  [inScript('ミニバー'), ' minibar '],
  [inScript('反則金|罰金'), ' fines '],
  [inScript('アルコール|酒類'), ' alcohol '],
  // Joining words.
  [inScript('に限る|に限り|のみ'), ' only '],
  [inScript('を除く|を除き|除く'), ' except '],
  [inScript('又は|または|若しくは'), ' or '],
  [inScript('及び|並びに'), ' and '],
  [inScript('・'), ' and '],
  [inScript('ただし、?'), ' however '],
];

/** The Japanese sentence in the English forms the readers know, amounts in yen written the English way. */
export function fromJapanese(s: string): string {
  let out = englishNumbers(s, 'thousands');
  for (const [re, en] of JAPANESE) out = out.replace(re, en);
  return out.replace(/[、，]/g, ', ').replace(/[（(]/g, ' (').replace(/[）)]/g, ') ').replace(/\s+/g, ' ').trim();
}
