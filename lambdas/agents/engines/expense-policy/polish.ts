/**
 * A Polish policy (regulamin podróży służbowych, polityka kosztów) states the rule forms an English one does: limits
 * ("do wysokości 900,00 zł za dobę hotelową"), receipts ("wraz z dokumentami potwierdzającymi", "na podstawie
 * faktury"), refusals ("Nie podlegają zwrotowi: napoje alkoholowe, minibar, mandaty"), approvals ("za zgodą
 * przełożonego") and rates ("stawka 0,89 zł/km"). Each sentence is read through this glossary into those English
 * forms; amounts in złoty ("1 030,30 zł") are PLN. The sentence cited stays the Polish one.
 */
import { BEFORE_AMOUNT, phrase } from './glossary.js';

export const POLISH_WORDS = ['się', 'nie', 'oraz', 'dla', 'jest', 'są', 'w', 'z', 'lub', 'za', 'od', 'przez', 'przy', 'po', 'tylko', 'wyłącznie', 'kosztów', 'podróży', 'pracownika', 'pracownikowi', 'dieta', 'diety', 'zł'];

export const POLISH: [RegExp, string][] = [
  // "45,00 zł", "0,89 zł/km": złoty.
  [/(\d[\d.]*)\s?zł\s?\/\s?km(?![\p{L}])/gu, 'PLN $1 per km'],
  [/(\d[\d.]*)\s?(?:zł|złotych|pln)(?![\p{L}])/giu, 'PLN $1'],
  // Refusals.
  [phrase('nie (?:podlega|podlegają) (?:zwrotowi|refundacji)|nie (?:są|jest) (?:zwracane|zwracany|refundowane|pokrywane|pokrywany)|nie zwraca się|zwrot nie przysługuje|nie przysługuje zwrot'), 'not reimbursable'],
  [phrase('(?:podlega|podlegają) zwrotowi|zwraca się|(?:są|jest) zwracane'), 'reimbursed'],
  // Receipts.
  [phrase('(?:wraz z|na podstawie|za okazaniem) (?:dokumentami potwierdzającymi|dokumentów potwierdzających|faktury|faktur|rachunku|rachunków|paragonu|biletu|biletów)(?: poniesione wydatki)?(?: \\([^)]*\\))?'), 'with a receipt required'],
  [phrase('bez (?:rachunku|faktury|paragonu|dowodu)'), 'without receipt'],
  [phrase('(?:rachunki|faktury|paragony|dowody zapłaty|dokumenty potwierdzające)'), 'receipts'],
  [phrase('(?:rachunek|faktura|paragon|dowód zapłaty)'), 'receipt'],
  [phrase('wymagan[ey]|obowiązkow[ey]|niezbędn[ey]'), 'required'],
  [phrase('z wyjątkiem|poza'), 'except'],
  [phrase('bez'), 'without'],
  [phrase('tylko|wyłącznie|jedynie'), 'only'],
  // Approvals.
  [phrase('(?:za )?(?:uprzednią )?(?:zgodą|zgody|akceptacją|akceptacji) (?:przełożonego|pracodawcy|kierownika|zarządu)'), 'with manager approval'],
  // Limits and their units.
  [phrase('(?:do wysokości|do kwoty|maksymalnie|nie więcej niż|limit|do)', BEFORE_AMOUNT.replace('(?=', '(?=(?:\\s?pln)?')), 'up to'],
  [phrase('(?:powyżej|ponad)', BEFORE_AMOUNT.replace('(?=', '(?=(?:\\s?pln)?')), 'over'],
  [phrase('za (?:każdy )?(?:nocleg|noc|dobę hotelową)'), 'per night'],
  [phrase('za (?:każdą )?dobę(?: podróży)?|dziennie'), 'per day'],
  [phrase('na osobę|za osobę|od osoby'), 'per person'],
  [phrase('napoje alkoholowe|alkohol'), 'alcohol'],
  [phrase('śniadani[ea]'), 'breakfast'],
  [phrase('obiad(?:y|u)?'), 'lunch'],
  [phrase('kolacj[ae]'), 'dinner'],
  [phrase('posiłki|posiłków|wyżywienie'), 'meals'],
  [phrase('noclegi|noclegów|nocleg|hotel(?:e|u)?'), 'hotel'],
  [phrase('taksówki|taksówka|taksówek'), 'taxi'],
  [phrase('mandaty|mandatów|grzywny'), 'fines'],
  [phrase('wydatki o charakterze prywatnym|wydatki prywatne'), 'personal expenses'],
  [phrase('opłaty za filmy'), 'movies'],
  [phrase('parking(?:i|u)?'), 'parking'],
  [phrase('samochód prywatny'), 'mileage'],
  [phrase('(?:klasa|klasy|kl\\.) 1|pierwsza klasa|1\\. klasa'), 'first class'],
  [phrase('(?:klasa|klasy|kl\\.) 2|druga klasa|2\\. klasa'), 'second class'],
  [phrase('wydatki|koszty'), 'expenses'],
  [phrase('wydatek'), 'expense'],
  [phrase('lub|albo'), 'or'],
  [phrase('oraz|i'), 'and'],
  [phrase('jest'), 'is'],
  [phrase('są'), 'are'],
];
