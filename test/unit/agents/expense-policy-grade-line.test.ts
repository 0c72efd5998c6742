/**
 * A daily allowance by grade on one line under its lead ("日当は、1日につき次のとおりとする。" over "取締役 5,000円 ／ 課長 3,500円
 * ／ 社員 2,500円"): the claim's grade takes its rate for the days it claims; no grade named → the lowest rate. A sentence
 * saying meals are paid by the allowance ("飲食代は別途精算しない") does not refuse the allowance.
 */
import { describe, expect, it } from 'vitest';
import { expensePolicyEngine } from '../../../lambdas/agents/engines/expense-policy/engine.js';

const run = (expense: string, expensePolicy: string) => expensePolicyEngine.analyse({ expense, expensePolicy });

const POLICY = [
  '株式会社北陸精工　出張旅費規程',
  '第1条　旅費の精算には、すべての支出について領収書を添付する。',
  '第2条（日当）',
  '1. 宿泊を伴う出張の日当は、1日につき次のとおりとする。',
  '　取締役　5,000円　／　課長　3,500円　／　社員　2,500円',
  '2. 日当には食事代を含むものとし、飲食代は別途精算しない。',
].join('\n');

const claim = (grade: string, line: string) => [
  '伝票番号,申請者,役職,日付,科目,内容,金額,領収書',
  `HK-0012,北村 彩,${grade},2025/02/10,日当,${line},"7,000",－`,
].join('\n');

describe('expense-policy: a daily allowance by grade on one line', () => {
  it('pays a manager two days at the manager rate', () => {
    expect(run(claim('課長', '出張日当 2日分'), POLICY)).toMatchObject({ verdict: 'approve', reimbursable_amount: 7000 });
  });

  it('holds a staff member claiming the manager rate to the staff rate', () => {
    const r = run(claim('社員', '出張日当 2日分'), POLICY);
    expect(r).toMatchObject({ verdict: 'flag', reimbursable_amount: 5000 });
    expect(r.violations[0]).toContain('2500');
  });
});
