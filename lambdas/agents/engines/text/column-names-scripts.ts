/**
 * Header names of bank and ledger tables in scripts other than the Latin one (Japanese, Chinese in both its scripts,
 * Korean, Arabic, Thai, Hebrew, Russian),
 * by the role of their column, as columns.ts normalises them (NFKC width, lower case, words only). Japanese banks'
 * exports (お引出し/お預入れ, 出金/入金, 残高) and ledgers' (借方金額/貸方金額, 摘要) name their columns so.
 */
import type { Role } from './columns.js';

const list = (s: string) => s.split('|');

const NAMES_AS_WRITTEN: Partial<Record<Role, string[]>> = {
  balance: list('残高|差引残高|取引後残高|現在高|お取引後残高|取引後残高|現在残高|余额|账户余额|帐户余额|잔액|거래후잔액|거래후 잔액|остаток|сальдо|баланс|餘額|帳戶餘額|結餘|잔고|거래후잔고|الرصيد|رصيد|الرصيد المتاح|ยอดคงเหลือ|คงเหลือ|יתרה'),
  date: list('年月日|日付|操作日|お取引日付|取引日付|取引日|お取引日|取引年月日|取扱日|取扱日付|お取扱日|お取扱日付|計上日|発生日|入出金日|伝票日付|日期|交易日期|记账日期|交易日|거래일자|거래일|거래일시|дата|дата операции|дата проводки|дата транзакции|дата документа|交易日|帳務日期|记账日期|交易時間|日期時間|일자|거래일|거래일시|거래일자|거래 일시|التاريخ|تاريخ|تاريخ العملية|تاريخ المعاملة|วันที่|วันที่ทำรายการ|תאריך'),
  reference: list('管理番号|伝票番号|取引番号|参照番号|番号|流水号|凭证号|交易流水号|번호|거래번호|номер|номер документа|номер операции|憑證號碼|交易序號|전표번호|المرجع|رقم المرجع|الرقم المرجعي|เลขที่อ้างอิง|אסמכתא'),
  debit: list('借方金額|借方|借方金额|차변|차변금액|дебет|сумма дебет|оборот дебет|借方金額|차변금액|مدين|المدين|เดบิต|חובה'),
  credit: list('貸方金額|貸方|贷方|贷方金额|대변|대변금액|кредит|сумма кредит|оборот кредит|貸方金額|대변금액|دائن|الدائن|เครดิต|זכות'),
  out: list('支払い金額|お支払い|支払い|お引出し|お引出|お引出金額|引出金額|お引き出し金額|お引出し金額|払出金額|払戻金額|お支払い金額|お引き出し|引出|引出し|引出額|出金|出金額|出金金額|お支払金額|支払金額|支出|支出金额|取出|출금|출금액|찾으신금액|расход|списание|списано|支出金額|提款|提款金額|支出金额|付款金額|지급액|출금금액|찾으신금액|السحب|سحب|مسحوبات|المبلغ المدين|ถอน|ถอนเงิน|จำนวนเงินถอน'),
  in: list('預かり金額|お預かり金額|預かり|お預かり|預り|お預り|お預入れ|お預入|お預入金額|預入金額|お預け入れ金額|お預入れ金額|受入金額|預り金額|お預け入れ|預入|預入れ|預入額|入金|入金額|入金金額|お預り金額|收入|收入金额|存入|입금|입금액|맡기신금액|приход|поступление|зачисление|зачислено|存入金額|存款|存款金額|收入金額|입금금액|맡기신금액|الإيداع|إيداع|ايداع|إيداعات|المبلغ الدائن|ฝาก|ฝากเงิน|จำนวนเงินฝาก'),
  amount: list('金額|取引金額|入出金|入出金額|入出金金額|お取引金額|金额|交易金额|발생금액|거래금액|금액|сумма|сумма операции|交易金額|金額|거래금액|المبلغ|مبلغ|จำนวนเงิน|סכום'),
  description: list('お取り扱い内容|入出金先内容|詳細|詳細1|詳細2|お取扱内容|お取引内容|取扱内容|取引内容|摘要|摘要内容|内容|取引先|取引先名|備考|メモ|交易摘要|摘要说明|对方户名|对方名称|备注|用途|적요|내용|거래내용|메모|기재내용|받는분|보낸분|описание|назначение платежа|назначение|контрагент|наименование|комментарий|說明|摘要說明|備註|附言|對方戶名|交易說明|보낸분 받는분|받는분 보낸분|송금메모|거래처|거래처명|의뢰인|수취인|البيان|الوصف|التفاصيل|وصف|تفاصيل|รายการ|รายละเอียด|תיאור|פרטים'),
};

/**
 * The names as columns.ts compares them: full-width forms as their ordinary ones, lower case, and anything not a
 * letter or digit (Thai vowel signs, Arabic marks, spaces) as one space, so "ยอดคงเหลือ" matches its header.
 */
export const SCRIPT_NAMES: Partial<Record<Role, string[]>> = Object.fromEntries(
  Object.entries(NAMES_AS_WRITTEN).map(([role, names]) => [role, [...new Set(names.map((n) => n.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim()))]]),
);

/** Words (Japanese, Chinese: parts of a name, as scripts without spaces write them) naming an account, not a column of a line. */
export const SCRIPT_ACCOUNT = /勘定|科目|口座番号|账号|账户|계좌|счет|счёт/;
