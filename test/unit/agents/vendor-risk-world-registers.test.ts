/**
 * A vendor's own country's papers, read as a practitioner there reads them: the register's founding date in its own
 * words and date format, an advance demanded in the vendor's language, a form answered no in its languages, the tax
 * numbers of other countries, an owner's address named by its province or port, a look-alike sender domain and a
 * call-back steered to e-mail. Documents written for these tests, of the forms the portals export.
 */
import { describe, expect, it } from 'vitest';
import { vendorRiskEngine } from '../../../lambdas/agents/engines/vendor-risk/engine.js';

const run = (...lines: string[]) => vendorRiskEngine.analyse({ vendorProfile: lines.join('\n') });
const areas = (...lines: string[]) => [...new Set(run(...lines).flags.map((f) => f.split(':')[0]))];

/** An established company with a tax number, a street address and ordinary terms; each test adds its lines. */
const BASE = ['Supplier record', 'Legal name: Nordpol Armatura sp. z o.o.', 'NIP: 897-123-45-67', 'Address: ul. Legnicka 48, 54-202 Wrocław', 'Payment terms: 30 days'];

describe('the founding date as the register prints it', () => {
  it.each([
    ['a Brazilian CNPJ card', 'DATA DE ABERTURA 02/06/2026'],
    ['a Mexican Constancia de Situación Fiscal', 'Fecha inicio de operaciones: 15 de mayo de 2026'],
    ['a Polish KRS extract', 'Data rejestracji w KRS: 7 kwietnia 2026'],
    ['a Turkish trade-registry line', 'Kuruluş tarihi / Founded: 03.03.2026'],
    ['a Korean business registration certificate', '개업연월일: 2026년 04월 01일'],
    ['a Japanese company register', '設立年月日: 2026年2月10日'],
    ['a dotted year-first date', 'Date business commenced: 2026. 5. 20.'],
    ['a Japanese era year', '設立: 令和8年3月1日'],
    ['a Taiwanese Minguo year', '成立日期: 民國115年1月5日'],
  ])('%s of this year → young company', (_name, line) => {
    expect(areas(...BASE, line)).toEqual(['young company']);
  });

  it.each([
    ['a Brazilian CNPJ card', 'DATA DE ABERTURA 14/07/2004'],
    ['a Korean certificate', '개업연월일: 2009년 03월 16일'],
    ['a Polish KRS extract in the genitive', 'Data wpisu do rejestru: 12 października 2012'],
    ['a Spanish start of operations', 'Inicio de operaciones: 1 de julio de 1998'],
    ['a Japanese era year', '設立年月日: 平成元年4月1日'],
  ])('%s of years ago → not young', (_name, line) => {
    expect(areas(...BASE, line)).toEqual([]);
  });
});

describe('an advance demanded in the vendor language', () => {
  it.each([
    ['Portuguese', 'Condições: pagamento 100% antecipado via PIX.'],
    ['Portuguese, a share at the order', 'Condições: 50% na aprovação do pedido, saldo na entrega.'],
    ['Spanish', 'Forma de pago: 40% de anticipo, resto contra entrega.'],
    ['Spanish, at the order confirmation', 'Forma de pago: 50% al confirmar la orden.'],
    ['French', 'Règlement : acompte de 30 % à la commande.'],
    ['Polish', 'Warunki: przedpłata 100% przed wysyłką.'],
    ['Turkish', 'Ödeme şekli: peşin ödeme.'],
    ['Japanese', '支払条件: 前払い'],
    ['Korean', '결제 조건: 선금 30%'],
    ['German', 'Zahlung im Voraus, danach Lieferung.'],
    ['Portuguese, money before the goods leave', 'Condições: pagamento via PIX antes do envio dos equipamentos.'],
    ['Polish, money before the goods leave', 'Warunki: płatność przelewem przed wysyłką towaru.'],
  ])('%s → upfront payment demand', (_name, line) => {
    expect(areas(...BASE, line)).toEqual(['upfront payment demand']);
  });

  it.each([
    ['Spanish "sin anticipo"', 'Forma de pago: transferencia a 60 días, sin anticipo.'],
    ['Portuguese "sem adiantamento"', 'Condições: 30/60/90 dias, sem adiantamento.'],
    ['a Turkish label answered "Yok / None." with its own note', 'Avans / Advance payment:   Yok / None. (Tooling is invoiced on approval, not in advance.)'],
    ['a label answered "Not required"', 'Advance payment        Not required'],
    ['a label answered in Polish', 'Przedpłata: brak'],
    ['a field-a-row export answered Non', 'Finances;Acompte demandé;Non'],
    ['a Spanish label answered "No aplica"', 'Anticipo: No aplica'],
  ])('%s → no demand', (_name, line) => {
    expect(areas(...BASE, line)).toEqual([]);
  });

  it('a no followed by a note that asks for money before delivery is no clean no', () => {
    expect(areas(...BASE, 'Advance payment: None. But 50% is due on order for tooling.')).toEqual(['upfront payment demand']);
  });
});

describe('a screening question answered no in the form languages', () => {
  it.each([
    ['Turkish and English', 'Do you sell to or ship via Iran, Syria or North Korea?        Hayır / No'],
    ['Polish', 'Czy firma prowadzi działalność w Iranie, Syrii lub na Krymie?   Nie'],
    ['Portuguese and English', 'Operations in Iran, Cuba or Syria?   Não / No'],
    ['Korean', 'Any shareholder resident in North Korea or Iran?   아니오'],
  ])('%s → the names in the question place no one', (_name, line) => {
    expect(areas(...BASE, line)).toEqual([]);
  });
});

describe('the tax numbers of other countries', () => {
  const noTax = ['Supplier registration', 'Legal name: Daewon Parts Co., Ltd.', 'Address: 12 Gongdan-ro, Changwon', 'Founded: 2001'];
  it.each([
    ['a Korean business registration number under its Korean label', '사업자등록번호: 609-81-44120'],
    ['a Korean business registration number under its English label', 'Business Registration No.: 609-81-44120'],
    ['a Japanese invoice registration number', '適格請求書発行事業者登録番号: T5120001098765'],
    ['a Chinese unified social credit code', '统一社会信用代码: 91310115MA1H7XXX2K'],
    ['a Turkish VKN', 'Vergi kimlik no: 3250447818'],
    ['a Czech DIČ', 'DIČ: CZ27082440'],
  ])('%s → a tax number on file', (_name, line) => {
    expect(areas(...noTax, line)).toEqual([]);
  });

  it('a registry number alone (KRS, REGON) is not a tax number', () => {
    expect(areas(...noTax, 'KRS: 0000287114', 'REGON: 020618233')).toEqual(['missing tax id']);
  });

  it('nothing at all to check the company against is also unverifiable', () => {
    expect(areas(...noTax)).toEqual(['missing tax id', 'unverifiable identity']);
  });
});

describe("an owner's or site's place named without its country", () => {
  it('a shareholder on an Iranian free-zone island, with the sanctions question answered No → decline', () => {
    const r = run(...BASE, 'Shareholder 1: Kish Commerce Group (Kish Island, Hormozgan) 51%', 'Is any shareholder in a sanctioned country (Iran, Syria, Cuba)? No');
    expect(r.decision).toBe('decline');
  });

  it('an owner in Iran written in Polish → decline', () => {
    expect(run(...BASE, 'Udziałowiec większościowy: Pars Handel, Teheran (Iran), 60%').decision).toBe('decline');
  });

  it('a US town named Lebanon, with its state, is no country', () => {
    expect(areas(...BASE, 'Warehouse: 80 Industrial Dr, Lebanon, Ohio 45036')).toEqual([]);
  });
});

describe('who sent a bank change', () => {
  const mail = (body: string[]) => [
    'From: "Accounts" <accounts@baltic-steeI.eu>',
    'To: payables@harbour-foods.com',
    'Subject: new bank account',
    'Date: Tue, 17 Nov 2026 10:12:00 +0100',
    '',
    'Dear customer, please pay our open invoices to our new bank account IBAN LT12 1000 0111 0100 1000.',
    ...body,
    'Regards, Baltic Steel UAB, www.baltic-steeI.eu',
    '',
    '[AP note] Vendor master: Baltic Steel UAB, e-mail domain on all invoices @baltic-steel.eu.',
  ];

  it('a sender domain with a capital I for an l imitates the vendor domain on file, though its own signature names it', () => {
    const r = run(...mail([]));
    expect(r.flags.some((f) => f.startsWith('unverifiable identity: sender domain baltic-steei.eu imitates the vendor'))).toBe(true);
    expect(r.grade).toBe('HIGH RISK');
  });

  it.each([
    ['Polish', 'Telefony w biurze są chwilowo niedostępne, prosimy o kontakt mailowy.'],
    ['English', 'Our phone lines are down this week, so please reach us by e-mail.'],
    ['Spanish', 'Por favor, contacten solo por correo.'],
  ])('%s: the call-back steered to e-mail is refused call-back verification', (_name, line) => {
    expect(run(...mail([line])).flags.some((f) => f.startsWith('unverifiable identity: refuses call-back'))).toBe(true);
  });
});

describe('the account holder written in the vendor script', () => {
  const record = (holder: string) => [
    'Supplier registration',
    'Company name (English) ....... Hanbit Valve Co., Ltd.',
    'Company name (local) ......... 주식회사 한빛밸브',
    '사업자등록번호 ............... 312-81-20931',
    'Founded ....................... 2004',
    'Address ....................... 88 Sandan-ro, Gimhae',
    `Account holder ................ ${holder}`,
  ];

  it('is the vendor when the document gives its local name', () => {
    expect(areas(...record('주식회사 한빛밸브'))).toEqual([]);
  });

  it('is a third party when it is another company', () => {
    expect(areas(...record('주식회사 대성무역'))).toEqual(['payment redirection']);
  });

  it('a Japanese legal name with its legal form glued on is the same company', () => {
    const lines = ['Supplier registration', '会社名: 株式会社みなと精機', '登録番号: T5120001098765', '設立: 1987年4月1日', 'Address: 2-8-1 Takaida, Higashiosaka', '口座名義 / Account holder: みなと精機 株式会社'];
    expect(areas(...lines)).toEqual([]);
  });
});

describe('a sender domain in another script', () => {
  it('a Cyrillic letter drawn as a Latin one imitates the vendor domain', () => {
    const r = run(
      'From: "Billing" <billing@nordwind-\u0441argo.de>',
      'To: ap@harbour-foods.com',
      'Subject: new bank account',
      'Date: Tue, 17 Nov 2026 10:12:00 +0100',
      '',
      'Please pay our open invoices to our new bank account IBAN DE44 5001 0517 5407 3249 31.',
      '',
      '[AP note] Vendor master: Nordwind Cargo GmbH, invoices always from @nordwind-cargo.de.',
    );
    expect(r.flags.some((f) => f.startsWith('unverifiable identity: sender domain'))).toBe(true);
  });
});

describe('the countries written in Japanese, Chinese or Korean', () => {
  const jp = ['取引先登録票 / Supplier registration', '会社名: 株式会社さくら物産', '登録番号: T4010001234567', '設立年月日: 平成12年4月1日', '所在地: 東京都港区芝浦3-4-1', 'イラン、北朝鮮、シリア、キューバとの取引はありますか？ いいえ'];

  it('a question naming them answered いいえ places no one', () => {
    expect(areas(...jp)).toEqual([]);
  });

  it('a shareholder in Tehran, Iran, written in Japanese → decline', () => {
    expect(run(...jp, '主要株主: テヘラン・トレーディング社（イラン、テヘラン）51%').decision).toBe('decline');
  });

  it('katakana words that hold a country name (シリアル, ハイランド) are not the country', () => {
    expect(areas(...jp, '製品: シリアル番号付きのハイランド製ポンプ')).toEqual([]);
  });

  it('a Chinese owner address in Pyongyang → decline', () => {
    expect(run(...BASE, '股东: 平壤贸易公司（朝鲜民主主义人民共和国）').decision).toBe('decline');
  });
});
