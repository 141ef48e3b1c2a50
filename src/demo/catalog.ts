/** The example dealership's deterministic data, served by its demo MCP servers. */

export interface CarModel {
  readonly model: string;
  readonly body: 'hatchback' | 'sedan' | 'suv' | 'estate';
  readonly fuel: 'petrol' | 'hybrid' | 'electric';
  readonly price: number;
  readonly rangeKm: number;
  readonly seats: number;
  readonly rating: number;
  readonly review: string;
}

export const CARS: readonly CarModel[] = [
  {
    model: 'Aurora EV',
    body: 'suv',
    fuel: 'electric',
    price: 46900,
    rangeKm: 520,
    seats: 5,
    rating: 4.6,
    review: 'Quiet, roomy and quick to charge; the infotainment is slow to start.',
  },
  {
    model: 'Brio Hatch',
    body: 'hatchback',
    fuel: 'petrol',
    price: 18900,
    rangeKm: 780,
    seats: 5,
    rating: 4.1,
    review: 'Cheap to run and easy to park; noisy on the motorway.',
  },
  {
    model: 'Corsa Hybrid Estate',
    body: 'estate',
    fuel: 'hybrid',
    price: 31500,
    rangeKm: 950,
    seats: 5,
    rating: 4.4,
    review: 'A huge boot and frugal engine; the ride is firm on rough roads.',
  },
  {
    model: 'Delta Sedan',
    body: 'sedan',
    fuel: 'petrol',
    price: 27400,
    rangeKm: 820,
    seats: 5,
    rating: 3.9,
    review: 'Comfortable and well equipped; the gearbox hesitates in town.',
  },
  {
    model: 'Everest 7',
    body: 'suv',
    fuel: 'hybrid',
    price: 52800,
    rangeKm: 880,
    seats: 7,
    rating: 4.3,
    review: 'Seven proper seats and a smooth hybrid; thirsty when fully loaded.',
  },
];

export interface Dealer {
  readonly name: string;
  readonly city: string;
  readonly models: readonly string[];
}

export const DEALERS: readonly Dealer[] = [
  { name: 'Northside Motors', city: 'Hamburg', models: ['Aurora EV', 'Brio Hatch', 'Everest 7'] },
  { name: 'Riverside Cars', city: 'Berlin', models: ['Aurora EV', 'Corsa Hybrid Estate'] },
  { name: 'Southgate Autos', city: 'Munich', models: ['Brio Hatch', 'Delta Sedan', 'Everest 7'] },
];

/** Test-drive times every dealer offers, as local times on the next working days. */
export const FREE_SLOTS: readonly string[] = [
  'Monday 10:00',
  'Monday 15:00',
  'Tuesday 11:00',
  'Wednesday 09:30',
  'Thursday 16:00',
];

/** The dealership's questions and answers, searched by the catalog's `search_faq` tool. */
export const FAQ: readonly { readonly keywords: readonly string[]; readonly answer: string }[] = [
  {
    keywords: ['warranty', 'guarantee'],
    answer:
      'Every new car comes with a three-year warranty, and the batteries of electric cars with eight years.',
  },
  {
    keywords: ['open', 'opening', 'hours'],
    answer: 'Our dealers are open Monday to Friday from 9:00 to 18:00 and on Saturday until 14:00.',
  },
  {
    keywords: ['trade', 'part-exchange', 'old car'],
    answer: 'Yes, we take your old car in part-exchange; the dealer values it at the test drive.',
  },
];

/** The answers whose keywords the question mentions, best first. */
export function searchFaq(question: string): string[] {
  const words = question.toLowerCase();
  return FAQ.map((entry) => ({
    entry,
    hits: entry.keywords.filter((k) => words.includes(k)).length,
  }))
    .filter(({ hits }) => hits > 0)
    .sort((a, b) => b.hits - a.hits)
    .map(({ entry }) => entry.answer);
}

/** The demo lender's yearly interest rate. */
export const ANNUAL_RATE = 0.059;

/** The monthly payment of an annuity loan, rounded to cents. */
export function monthlyPayment(amount: number, months: number): number {
  const rate = ANNUAL_RATE / 12;
  const payment = (amount * rate) / (1 - (1 + rate) ** -months);
  return Math.round(payment * 100) / 100;
}
