/**
 * A limit set per country ("Schweiz 220,00 EUR", "Switzerland: CHF 300", "United Kingdom £150") holds an expense in
 * that country. A reviewer knows the country from the city the expense names (Basel is in Switzerland) or the money it
 * was paid in (a receipt in Swiss francs was paid in Switzerland); a claim rarely names the country itself. The
 * countries below are the ones travel policies list most; their names are given in the languages policies are written
 * in, with their own currency (when no other country uses it) and their larger cities.
 */

interface Country {
  names: string[];
  /** The currency only this country pays in: an expense charged in it was spent there. */
  currency?: string;
  cities: string[];
}

const COUNTRIES: Country[] = [
  { names: ['Switzerland', 'Schweiz', 'Suisse', 'Svizzera', 'Zwitserland', 'Suiza', 'Suíça'], currency: 'CHF', cities: ['Zurich', 'Zürich', 'Geneva', 'Genf', 'Genève', 'Ginevra', 'Basel', 'Bâle', 'Bern', 'Berne', 'Lausanne', 'Lugano', 'Luzern', 'Lucerne', 'Zug', 'St. Gallen', 'Winterthur', 'Davos'] },
  { names: ['United Kingdom', 'UK', 'U.K.', 'Great Britain', 'Britain', 'England', 'Scotland', 'Wales', 'Großbritannien', 'Vereinigtes Königreich', 'Royaume-Uni', 'Regno Unito', 'Verenigd Koninkrijk'], currency: 'GBP', cities: ['London', 'Londres', 'Londra', 'Londen', 'Manchester', 'Birmingham', 'Leeds', 'Glasgow', 'Edinburgh', 'Bristol', 'Liverpool', 'Cambridge', 'Oxford', 'Belfast', 'Cardiff', 'Newcastle', 'Sheffield', 'Nottingham'] },
  { names: ['Japan', 'Japon', 'Giappone', 'Japón'], currency: 'JPY', cities: ['Tokyo', 'Tokio', 'Osaka', 'Kyoto', 'Yokohama', 'Nagoya', 'Fukuoka', 'Sapporo', 'Kobe'] },
  { names: ['Sweden', 'Schweden', 'Suède', 'Svezia', 'Zweden', 'Sverige'], currency: 'SEK', cities: ['Stockholm', 'Gothenburg', 'Göteborg', 'Malmö', 'Uppsala'] },
  { names: ['Norway', 'Norwegen', 'Norvège', 'Norvegia', 'Noorwegen', 'Norge'], currency: 'NOK', cities: ['Oslo', 'Bergen', 'Stavanger', 'Trondheim'] },
  { names: ['Denmark', 'Dänemark', 'Danemark', 'Danimarca', 'Denemarken', 'Danmark'], currency: 'DKK', cities: ['Copenhagen', 'Kopenhagen', 'Copenhague', 'København', 'Aarhus', 'Odense'] },
  { names: ['Poland', 'Polen', 'Pologne', 'Polonia', 'Polska'], currency: 'PLN', cities: ['Warsaw', 'Warschau', 'Varsovie', 'Kraków', 'Krakau', 'Wrocław', 'Breslau', 'Gdańsk', 'Danzig', 'Poznań', 'Łódź'] },
  { names: ['Czech Republic', 'Czechia', 'Tschechien', 'Tchéquie', 'Repubblica Ceca', 'Tsjechië'], currency: 'CZK', cities: ['Prague', 'Prag', 'Praha', 'Brno'] },
  { names: ['Hungary', 'Ungarn', 'Hongrie', 'Ungheria', 'Hongarije'], currency: 'HUF', cities: ['Budapest'] },
  { names: ['Germany', 'Deutschland', 'Allemagne', 'Germania', 'Duitsland', 'Alemania'], cities: ['Berlin', 'Munich', 'München', 'Hamburg', 'Frankfurt', 'Cologne', 'Köln', 'Stuttgart', 'Düsseldorf', 'Leipzig', 'Dresden', 'Hannover', 'Nuremberg', 'Nürnberg', 'Bremen', 'Freiburg'] },
  { names: ['Austria', 'Österreich', 'Autriche', 'Oostenrijk'], cities: ['Vienna', 'Wien', 'Vienne', 'Salzburg', 'Graz', 'Innsbruck', 'Linz'] },
  { names: ['France', 'Frankreich', 'Francia', 'Frankrijk'], cities: ['Paris', 'Parigi', 'Parijs', 'Lyon', 'Marseille', 'Toulouse', 'Nice', 'Nizza', 'Bordeaux', 'Lille', 'Strasbourg', 'Straßburg', 'Nantes', 'Grenoble'] },
  { names: ['Italy', 'Italien', 'Italie', 'Italia', 'Italië'], cities: ['Rome', 'Rom', 'Roma', 'Milan', 'Mailand', 'Milano', 'Turin', 'Torino', 'Naples', 'Neapel', 'Napoli', 'Florence', 'Florenz', 'Firenze', 'Bologna', 'Venice', 'Venedig', 'Venezia', 'Genoa', 'Genova'] },
  { names: ['Netherlands', 'Niederlande', 'Pays-Bas', 'Paesi Bassi', 'Nederland', 'Holland'], cities: ['Amsterdam', 'Rotterdam', 'The Hague', 'Den Haag', 'Utrecht', 'Eindhoven'] },
  { names: ['Belgium', 'Belgien', 'Belgique', 'Belgio', 'België'], cities: ['Brussels', 'Brüssel', 'Bruxelles', 'Brussel', 'Antwerp', 'Antwerpen', 'Anvers', 'Ghent', 'Gent', 'Liège'] },
  { names: ['Spain', 'Spanien', 'Espagne', 'Spagna', 'Spanje', 'España'], cities: ['Madrid', 'Barcelona', 'Valencia', 'Seville', 'Sevilla', 'Bilbao', 'Málaga'] },
  { names: ['United States', 'USA', 'U.S.', 'US', 'Vereinigte Staaten', 'États-Unis', 'Stati Uniti', 'Verenigde Staten'], cities: ['New York', 'Chicago', 'San Francisco', 'Los Angeles', 'Boston', 'Seattle', 'Washington', 'Miami', 'Houston', 'Dallas', 'Atlanta', 'Denver'] },
];

const plain = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '');
const escape = (s: string) => plain(s).replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
const whole = (text: string, name: string, cased: boolean) =>
  new RegExp(`(?<![\\p{L}\\d])${escape(name)}(?![\\p{L}\\d])`, cased ? 'u' : 'iu').test(plain(text));

/** The country a place's name is, in any of the languages listed. */
function countryOf(place: string): Country | undefined {
  const key = plain(place).trim().toLowerCase();
  return COUNTRIES.find((c) => c.names.some((n) => plain(n).toLowerCase() === key));
}

/**
 * Whether a text places an expense in the country `place` names: by one of the country's names, one of its cities, or
 * an amount in the currency only it pays in ("348,00 CHF"). A place that is no country listed here: undefined.
 */
export function inCountry(text: string, place: string): boolean | undefined {
  const country = countryOf(place);
  if (!country) return undefined;
  // Names, cities and currency codes as printed ("Nice" is a city, "nice" is not; "CHF" is a code).
  if (country.names.some((n) => whole(text, n, true))) return true;
  if (country.cities.some((c) => whole(text, c, true))) return true;
  return country.currency !== undefined && whole(text, country.currency, true);
}
