/**
 * Reference list of UK cities, towns and a handful of London districts that
 * members can pick as their home city. Kept sorted by name (en-GB collation)
 * so it can be shown as-is in pickers.
 */

export type UkCountry = 'England' | 'Scotland' | 'Wales' | 'Northern Ireland';

export interface UkCity {
  name: string;
  region: string;
  country: UkCountry;
}

export const UK_CITIES: readonly UkCity[] = [
  { name: 'Aberdeen', region: 'Aberdeen City', country: 'Scotland' },
  { name: 'Aberystwyth', region: 'Mid Wales', country: 'Wales' },
  { name: 'Armagh', region: 'County Armagh', country: 'Northern Ireland' },
  { name: 'Ballymena', region: 'County Antrim', country: 'Northern Ireland' },
  { name: 'Bath', region: 'South West', country: 'England' },
  { name: 'Belfast', region: 'County Antrim', country: 'Northern Ireland' },
  { name: 'Birmingham', region: 'West Midlands', country: 'England' },
  { name: 'Bournemouth', region: 'South West', country: 'England' },
  { name: 'Bradford', region: 'Yorkshire and the Humber', country: 'England' },
  { name: 'Brecon', region: 'Mid Wales', country: 'Wales' },
  { name: 'Brighton', region: 'South East', country: 'England' },
  { name: 'Bristol', region: 'South West', country: 'England' },
  { name: 'Brixton', region: 'Greater London', country: 'England' },
  { name: 'Cambridge', region: 'East of England', country: 'England' },
  { name: 'Camden', region: 'Greater London', country: 'England' },
  { name: 'Canterbury', region: 'South East', country: 'England' },
  { name: 'Cardiff', region: 'South Wales', country: 'Wales' },
  { name: 'Carlisle', region: 'North West', country: 'England' },
  { name: 'Carmarthen', region: 'West Wales', country: 'Wales' },
  { name: 'Chelmsford', region: 'East of England', country: 'England' },
  { name: 'Chester', region: 'North West', country: 'England' },
  { name: 'Coleraine', region: 'County Londonderry', country: 'Northern Ireland' },
  { name: 'Coventry', region: 'West Midlands', country: 'England' },
  { name: 'Derby', region: 'East Midlands', country: 'England' },
  { name: 'Derry~Londonderry', region: 'County Londonderry', country: 'Northern Ireland' },
  { name: 'Dundee', region: 'Dundee City', country: 'Scotland' },
  { name: 'Dunfermline', region: 'Fife', country: 'Scotland' },
  { name: 'Durham', region: 'North East', country: 'England' },
  { name: 'Edinburgh', region: 'City of Edinburgh', country: 'Scotland' },
  { name: 'Enniskillen', region: 'County Fermanagh', country: 'Northern Ireland' },
  { name: 'Exeter', region: 'South West', country: 'England' },
  { name: 'Glasgow', region: 'Glasgow City', country: 'Scotland' },
  { name: 'Gloucester', region: 'South West', country: 'England' },
  { name: 'Hackney', region: 'Greater London', country: 'England' },
  { name: 'Hull', region: 'Yorkshire and the Humber', country: 'England' },
  { name: 'Inverness', region: 'Highland', country: 'Scotland' },
  { name: 'Ipswich', region: 'East of England', country: 'England' },
  { name: 'Islington', region: 'Greater London', country: 'England' },
  { name: 'Lancaster', region: 'North West', country: 'England' },
  { name: 'Leeds', region: 'Yorkshire and the Humber', country: 'England' },
  { name: 'Leicester', region: 'East Midlands', country: 'England' },
  { name: 'Lincoln', region: 'East Midlands', country: 'England' },
  { name: 'Lisburn', region: 'County Antrim', country: 'Northern Ireland' },
  { name: 'Liverpool', region: 'North West', country: 'England' },
  { name: 'Llandudno', region: 'North Wales', country: 'Wales' },
  { name: 'London', region: 'Greater London', country: 'England' },
  { name: 'Manchester', region: 'North West', country: 'England' },
  { name: 'Middlesbrough', region: 'North East', country: 'England' },
  { name: 'Milton Keynes', region: 'South East', country: 'England' },
  { name: 'Newcastle upon Tyne', region: 'North East', country: 'England' },
  { name: 'Newport', region: 'South Wales', country: 'Wales' },
  { name: 'Newry', region: 'County Down', country: 'Northern Ireland' },
  { name: 'Northampton', region: 'East Midlands', country: 'England' },
  { name: 'Norwich', region: 'East of England', country: 'England' },
  { name: 'Nottingham', region: 'East Midlands', country: 'England' },
  { name: 'Omagh', region: 'County Tyrone', country: 'Northern Ireland' },
  { name: 'Oxford', region: 'South East', country: 'England' },
  { name: 'Peckham', region: 'Greater London', country: 'England' },
  { name: 'Perth', region: 'Perth and Kinross', country: 'Scotland' },
  { name: 'Peterborough', region: 'East of England', country: 'England' },
  { name: 'Plymouth', region: 'South West', country: 'England' },
  { name: 'Portsmouth', region: 'South East', country: 'England' },
  { name: 'Preston', region: 'North West', country: 'England' },
  { name: 'Reading', region: 'South East', country: 'England' },
  { name: 'Salford', region: 'North West', country: 'England' },
  { name: 'Sheffield', region: 'Yorkshire and the Humber', country: 'England' },
  { name: 'Southampton', region: 'South East', country: 'England' },
  { name: 'St Albans', region: 'East of England', country: 'England' },
  { name: 'St Andrews', region: 'Fife', country: 'Scotland' },
  { name: 'St Davids', region: 'West Wales', country: 'Wales' },
  { name: 'Stirling', region: 'Stirling', country: 'Scotland' },
  { name: 'Stoke-on-Trent', region: 'West Midlands', country: 'England' },
  { name: 'Sunderland', region: 'North East', country: 'England' },
  { name: 'Swansea', region: 'South Wales', country: 'Wales' },
  { name: 'Truro', region: 'South West', country: 'England' },
  { name: 'Winchester', region: 'South East', country: 'England' },
  { name: 'Wolverhampton', region: 'West Midlands', country: 'England' },
  { name: 'Worcester', region: 'West Midlands', country: 'England' },
  { name: 'Wrexham', region: 'North Wales', country: 'Wales' },
  { name: 'York', region: 'Yorkshire and the Humber', country: 'England' },
];

/** Default maximum number of results returned by {@link searchCities}. */
export const CITY_SEARCH_LIMIT = 50;

/**
 * Case-insensitive substring search over city name, region and country.
 * An empty (or whitespace-only) query returns the first `limit` cities.
 * Results keep the order of {@link UK_CITIES}.
 */
export function searchCities(query: string, limit = CITY_SEARCH_LIMIT): UkCity[] {
  const max = Math.max(0, Math.floor(limit));
  const needle = query.trim().toLocaleLowerCase('en-GB');
  if (needle === '') {
    return UK_CITIES.slice(0, max);
  }
  // The cities whose name is what was typed come first: "York" finds York before the Yorkshire
  // towns. Then names that start with it, names that contain it, and last region or country;
  // within each, the list's own (alphabetical) order.
  const rank = (city: UkCity) => {
    const name = city.name.toLocaleLowerCase('en-GB');
    if (name === needle) return 0;
    if (name.startsWith(needle)) return 1;
    if (name.includes(needle)) return 2;
    if (city.region.toLocaleLowerCase('en-GB').includes(needle) || city.country.toLocaleLowerCase('en-GB').includes(needle)) return 3;
    return -1;
  };
  return UK_CITIES.map((city) => ({ city, rank: rank(city) }))
    .filter((m) => m.rank >= 0)
    .sort((a, b) => a.rank - b.rank)
    .slice(0, max)
    .map((m) => m.city);
}

/** Exact, case-insensitive lookup by city name (surrounding whitespace ignored). */
export function findCity(name: string): UkCity | undefined {
  const wanted = name.trim().toLocaleLowerCase('en-GB');
  if (wanted === '') return undefined;
  return UK_CITIES.find((city) => city.name.toLocaleLowerCase('en-GB') === wanted);
}
